import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Database, type Tx } from '../db/open-database.ts';
import { pullBound } from './pull-bound.ts';

export const CHANGE_CHANNEL = 'sync_changes';

const notificationSchema = z.object({
  c: z.string(),
  o: z.uuid(),
  u: z.array(z.uuid()),
  l: z.string(),
});
export type ChangeNotification = {
  collection: string;
  orgId: string;
  ownerIds: string[];
  lsn: number;
};

/**
 * Announces a change to every server process (PostgreSQL NOTIFY is delivered at commit, and
 * not at all on rollback). The position is this transaction's own id, the rows' txid.
 */
export async function notifyChange(
  tx: Tx,
  change: { collection: string; orgId: string; ownerIds: string[] },
) {
  // Owners are listed so the hub can skip customers a change is not about; a very large batch
  // names none and reaches everyone in the organisation who may see the collection.
  const ownerIds = change.ownerIds.length <= 100 ? change.ownerIds : [];
  await tx.execute(
    sql`select pg_notify(${CHANGE_CHANNEL}, json_build_object('c', ${change.collection}::text, 'o', ${change.orgId}::text, 'u', ${JSON.stringify(ownerIds)}::json, 'l', pg_current_xact_id()::text)::text)`,
  );
}

type Listener = (change: ChangeNotification) => void;
type ResyncListener = () => void;

/**
 * One per server process: LISTENs for changes and passes each on once it is pullable — that
 * is, once every transaction older than it that may write to this database has finished (the
 * pull's visibility bound, `pullBound`) — so a client told about a change always finds it.
 */
export class ChangeHub {
  private readonly listeners = new Set<Listener>();
  private readonly resyncListeners = new Set<ResyncListener>();
  private listening = false;
  private pending: ChangeNotification[] = [];
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      CHANGE_CHANNEL,
      (payload) => this.receive(payload),
      () => {
        // Listening again after a lost connection: whatever was announced meanwhile is gone,
        // so every client is told to resync.
        if (this.listening) for (const listener of this.resyncListeners) listener();
        this.listening = true;
      },
    );
  }

  subscribe(listener: Listener, onResync: ResyncListener = () => {}): () => void {
    this.listeners.add(listener);
    this.resyncListeners.add(onResync);
    return () => {
      this.listeners.delete(listener);
      this.resyncListeners.delete(onResync);
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unlisten?.();
  }

  private receive(payload: string): void {
    const parsed = notificationSchema.safeParse(safeJson(payload));
    if (!parsed.success) return;
    const { c, o, u, l } = parsed.data;
    this.pending.push({ collection: c, orgId: o, ownerIds: u, lsn: Number(l) });
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }

  private async flush(): Promise<void> {
    if (this.closed || this.pending.length === 0) return;
    let bound: number;
    try {
      const [row] = rowsOf<{ bound: string }>(
        await this.database.db.execute(sql`select ${pullBound()}::text as bound`),
      );
      bound = Number(row?.bound ?? 0);
    } catch {
      if (!this.closed) this.schedule(250);
      return;
    }
    const ready = this.pending.filter((change) => change.lsn < bound);
    this.pending = this.pending.filter((change) => change.lsn >= bound);
    for (const change of ready) for (const listener of this.listeners) listener(change);
    // Older transactions are still in flight: look again shortly.
    if (this.pending.length) this.schedule(20);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
