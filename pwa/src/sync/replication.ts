import { BehaviorSubject, combineLatest, map, Subject, type Observable } from 'rxjs';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import type { RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb/plugins/core';
import {
  replicatedCollections,
  type CollectionName,
  type DocOf,
} from '@platform/schema/sync/collections';
import {
  checkpointSchema,
  pushRejectionSchema,
  withDeleted,
  type Checkpoint,
} from '@platform/schema/sync/sync.zod';
import {
  PUSH_BATCH_SIZE,
  PUSH_REQUEST_BYTES,
  pushTooLargeMessage,
} from '@platform/schema/sync/push-limits';
import { syncMessages } from '@platform/schema/sync/sync.messages';
import { z } from 'zod';
import type { AccountDatabase } from '../db/database.ts';
import { openChangeStream } from './change-stream.ts';
import { firstPullsOf } from './first-pull.ts';
import { partsBySize } from './push-parts.ts';
import { pendingWritesOf } from './pending-writes.ts';

export class SyncHttpError extends Error {
  constructor(readonly status: number) {
    super(`sync answered ${status}`);
  }
}

/** `standby`: another tab of this account is the leader and replicates for every tab. */
export type SyncState = 'offline' | 'syncing' | 'online' | 'signed-out' | 'standby';
export type SyncStatus = { state: SyncState; pending: number };

export type SyncOptions = {
  collections: readonly CollectionName[];
  /** '' in the browser (same origin); the server's URL under tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** One tab replicates (RxDB leader election); tests run a single instance. */
  waitForLeadership?: boolean;
  retryTime?: number;
  /** The device's own idea of being online (browser online/offline events). */
  online$?: Observable<boolean>;
};

const utf8 = new TextEncoder();

/**
 * Where a collection's replication keeps its checkpoint on the device. From version 1 on it
 * names the collection's local version: a new shape of a read-only collection is pulled from
 * the beginning (db/migrations.ts dropped the old documents). Version 0 keeps the name devices
 * already have.
 */
export function replicationIdentifierOf(name: CollectionName, base: string): string {
  const { version } = replicatedCollections[name];
  return `sync-${name}${version > 0 ? `-v${version}` : ''}-${base || 'same-origin'}`;
}

/**
 * Replicates the account's collections with the server: checkpointed pull, push with conflict
 * detection, the live stream telling us when to pull, and the count of changes not yet sent.
 */
export function startSync(db: AccountDatabase, options: SyncOptions) {
  const base = options.baseUrl ?? '';
  const http = options.fetch ?? globalThis.fetch.bind(globalThis);
  const pending = pendingWritesOf(db.name);
  const firstPulls = firstPullsOf(db.name);
  const signedOut = new BehaviorSubject(false);
  // Only the leading tab replicates (RxDB leader election), so only it listens to the stream.
  const waitForLeadership = options.waitForLeadership ?? true;
  const leader = new BehaviorSubject(!waitForLeadership);
  let stream: ReturnType<typeof openChangeStream> | null = null;
  const streamOpen = new BehaviorSubject(false);
  const openStream = () => {
    stream = openChangeStream({ url: `${base}/api/sync/stream`, fetch: http });
    stream.states.subscribe((s) => streamOpen.next(s === 'open'));
    stream.signals.subscribe((signal) => {
      for (const [name, trigger] of triggers) {
        if (signal.kind === 'resync' || signal.collection === name) trigger.next('RESYNC');
      }
    });
  };
  // What the way to the server takes in one push; lowered for good after a 413.
  let requestBytes = PUSH_REQUEST_BYTES;
  const triggers = new Map<CollectionName, Subject<'RESYNC'>>();

  const request = async (path: string, init?: RequestInit) => {
    const response = await http(`${base}${path}`, { credentials: 'same-origin', ...init });
    signedOut.next(response.status === 401);
    return response;
  };

  const replicate = <N extends CollectionName>(name: N) => {
    type Doc = DocOf<N>;
    type Row = RxReplicationWriteToMasterRow<Doc>;
    const collection = db.collections[name];
    // TypeScript widens `replicatedCollections[name]` to every collection's schema, so what
    // this parses is typed as any collection's document: the casts below narrow it back to N's.
    const wireSchema = withDeleted(replicatedCollections[name].schema);
    // Documents are checked one by one: a document this version of the app cannot read is
    // skipped (and reported), never allowed to stop the collection at one checkpoint forever.
    const pullSchema = z.object({
      documents: z.array(z.unknown()),
      checkpoint: checkpointSchema.nullable(),
    });
    const readable = (documents: unknown[]): WithDeleted<Doc>[] =>
      documents.flatMap((document) => {
        const parsed = wireSchema.safeParse(document);
        if (parsed.success) return [parsed.data as WithDeleted<Doc>];
        console.error(`sync: skipped an unreadable ${name} document`, parsed.error.issues);
        return [];
      });
    const refused = db.refusedIds(name);
    const trigger = new Subject<'RESYNC'>();
    triggers.set(name, trigger);

    // A batch goes in parts of at most `requestBytes`; a part refused for its size on the way
    // (413: a proxy's limit, an older server) is cut smaller and never sent whole again, and a
    // single row refused so is set aside like any refused change (decision 0047).
    const push = async (rows: Row[]): Promise<WithDeleted<Doc>[]> => {
      const conflicts: WithDeleted<Doc>[] = [];
      for (const part of partsBySize(rows, requestBytes)) conflicts.push(...(await pushPart(part)));
      return conflicts;
    };

    const pushPart = async (rows: Row[]): Promise<WithDeleted<Doc>[]> => {
      const body = JSON.stringify(rows);
      const response = await request(`/api/sync/${name}/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      if (response.status === 413) {
        const [only] = rows;
        if (rows.length === 1 && only)
          return setAside(rows, [{ id: only.newDocumentState.id, message: pushTooLargeMessage }]);
        requestBytes = Math.min(requestBytes, Math.floor(utf8.encode(body).length / 2));
        return push(rows);
      }
      if (response.status === 422)
        return setAside(rows, pushRejectionSchema.parse(await response.json()).errors);
      if (!response.ok) throw new SyncHttpError(response.status);
      const conflicts = z.array(wireSchema).parse(await response.json()) as WithDeleted<Doc>[];
      return conflicts;
    };

    // A refused row must never block the queue: keep it aside with the reason, take the
    // server's state for it (a tombstone when the server has none the device may see, which
    // it says with notAmongYours — decision 0048), push the rest.
    const setAside = async (rows: Row[], errors: Array<{ id: string; message: string }>) => {
      const reasons = new Map(errors.map((e) => [e.id, e.message]));
      const unreadable = errors.find((e) => !rows.some((r) => r.newDocumentState.id === e.id));
      const isRefused = (row: Row) =>
        reasons.has(row.newDocumentState.id) || unreadable !== undefined;
      const now = new Date().toISOString();
      for (const row of rows.filter(isRefused)) {
        const id = row.newDocumentState.id;
        refused.add(id);
        // The reason first: whoever waits for this write's verdict reads it once it is no
        // longer pending (write-verdict.ts).
        await db.rejections.upsert({
          id: `${name}:${id}:${now}`,
          collectionName: name,
          documentId: id,
          message: reasons.get(id) ?? unreadable?.message ?? 'Refused by the server.',
          document: row.newDocumentState,
          rejectedAt: now,
        });
        pending.remove(name, id);
      }
      const rest = rows.filter((row) => !isRefused(row));
      const restConflicts = rest.length ? await pushPart(rest) : [];
      const resets = rows.filter(isRefused).map((row) => {
        const master = row.assumedMasterState;
        const serverHasNone =
          !master || reasons.get(row.newDocumentState.id) === syncMessages.notAmongYours;
        return serverHasNone ? { ...(master ?? row.newDocumentState), _deleted: true } : master;
      });
      return [...restConflicts, ...resets];
    };

    const state = replicateRxCollection<Doc, Checkpoint>({
      replicationIdentifier: replicationIdentifierOf(name, base),
      collection,
      live: true,
      retryTime: options.retryTime ?? 5000,
      waitForLeadership,
      autoStart: true,
      pull: {
        batchSize: 200,
        stream$: trigger.asObservable(),
        handler: async (checkpoint, batchSize) => {
          const query = new URLSearchParams({ batchSize: String(batchSize) });
          if (checkpoint) {
            query.set('id', checkpoint.id);
            query.set('lsn', String(checkpoint.lsn));
          }
          const response = await request(`/api/sync/${name}/pull?${query}`, {
            headers: { accept: 'application/json' },
          });
          if (!response.ok) throw new SyncHttpError(response.status);
          const body = pullSchema.parse(await response.json());
          return {
            documents: readable(body.documents),
            checkpoint: body.checkpoint ?? checkpoint,
          };
        },
      },
      push: { batchSize: PUSH_BATCH_SIZE, handler: push },
    });
    state.sent$.subscribe((doc) => pending.remove(name, doc.id));
    // A failed pull or push is tried again (retryTime): said once in the console, for whoever
    // looks (DevTools, the end-to-end tests' journal), not once per try.
    let lastSaid = '';
    state.error$.subscribe((error) => {
      const said = syncErrorText(error);
      if (said !== lastSaid) console.warn(`sync: ${name}: ${said} (tried again)`);
      lastSaid = said;
    });
    state.received$.subscribe(() => (lastSaid = ''));
    void state.awaitInitialReplication().then(
      () => firstPulls.mark(name),
      () => {},
    );
    return [name, state] as const;
  };
  const states = options.collections.map((name) => replicate(name));

  let stopped = false;
  if (waitForLeadership) {
    void db.rx.waitForLeadership().then(() => {
      if (stopped) return;
      leader.next(true);
      openStream();
    });
  } else openStream();

  const replications = new Map(states);
  const active$: Observable<boolean> = combineLatest(
    [...replications.values()].map((s) => s.active$),
  ).pipe(map((flags) => flags.some(Boolean)));
  // 'Synced' means caught up: not before every collection's first pull in this run has ended
  // (between leadership and the first request, nothing is active yet).
  const caughtUp = new BehaviorSubject(false);
  void Promise.all([...replications.values()].map((s) => s.awaitInitialReplication())).then(
    () => caughtUp.next(true),
    () => {},
  );
  const online$ = options.online$ ?? new BehaviorSubject(true);
  const status$: Observable<SyncStatus> = combineLatest([
    active$,
    streamOpen,
    pending.count$,
    signedOut,
    leader,
    online$,
    caughtUp,
  ]).pipe(
    map(([active, open, count, out, leading, online, caught]) => ({
      state: !leading
        ? 'standby'
        : out
          ? 'signed-out'
          : !online
            ? 'offline'
            : active || !caught
              ? 'syncing'
              : open
                ? 'online'
                : 'offline',
      pending: count,
    })),
  );

  return {
    replications,
    pending,
    status$,
    reconnect: () => {
      stream?.reconnect();
      for (const state of replications.values()) state.reSync();
    },
    awaitInSync: async () => {
      await Promise.all([...replications.values()].map((s) => s.awaitInSync()));
    },
    stop: async () => {
      stopped = true;
      stream?.close();
      await Promise.all([...replications.values()].map((s) => s.cancel()));
    },
  };
}
export type SyncEngine = ReturnType<typeof startSync>;

/** A replication error as one line: its direction and the causes RxDB wrapped (RC_PULL, RC_PUSH). */
export function syncErrorText(error: {
  code?: string;
  message: string;
  parameters?: { direction?: string; errors?: ReadonlyArray<{ message?: string }> };
}): string {
  const causes = (error.parameters?.errors ?? []).map((cause) => cause.message ?? '?');
  const what = error.parameters?.direction ?? error.code ?? 'replication';
  return `${what} failed: ${causes.length > 0 ? causes.join('; ') : error.message.split('\n')[0]}`;
}
