import { filter, firstValueFrom, map, race, timer } from 'rxjs';
import type { CollectionName } from '@platform/schema/sync/collections';
import type { AccountDatabase } from '../db/database.ts';
import { pendingWritesOf } from './pending-writes.ts';

/**
 * What became of a local write (DESIGN.md How data flows 6): the server acknowledged it, refused
 * it (with the reason it gave), or it is still waiting on this device to be sent.
 */
export type Verdict =
  { kind: 'acknowledged' } | { kind: 'refused'; message: string } | { kind: 'queued' };

/** How long a screen waits for the server's answer before saying the write waits on the device. */
export const VERDICT_WAIT_MS = 8000;

/**
 * Waits for the verdict on the write of `id` made at `since`: once the replication no longer
 * holds it as pending, a rejection recorded since then means refused, none means acknowledged.
 * After `timeoutMs` it is still queued (offline, or the server slow): the replication goes on
 * trying, and a refusal then shows where refused writes are listed.
 */
export async function awaitVerdict(
  db: AccountDatabase,
  name: CollectionName,
  id: string,
  since: Date,
  timeoutMs = VERDICT_WAIT_MS,
): Promise<Verdict> {
  const pending = pendingWritesOf(db.name);
  const sent = pending.count$.pipe(
    filter(() => !pending.has(name, id)),
    map(() => 'sent' as const),
  );
  const outcome = await firstValueFrom(
    race(sent, timer(timeoutMs).pipe(map(() => 'late' as const))),
  );
  if (outcome === 'late') return { kind: 'queued' };
  const rejection = await db.rejections
    .findOne({
      selector: {
        collectionName: name,
        documentId: id,
        rejectedAt: { $gte: since.toISOString() },
      },
      sort: [{ rejectedAt: 'desc' }],
    })
    .exec();
  return rejection ? { kind: 'refused', message: rejection.message } : { kind: 'acknowledged' };
}
