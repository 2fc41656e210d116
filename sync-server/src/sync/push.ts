import { isDeepStrictEqual } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { changeStampRefusal } from '@platform/schema/sync/change-stamp.rules';
import { unstorableTextIn } from '@platform/schema/sync/storable-text.rules';
import type { PushRow } from '@platform/schema/sync/sync.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor, Scope } from './actor.ts';
import type {
  AnyReplicatedCollection,
  Change,
  RuleError,
  WireDoc,
} from './collection-definition.ts';
import { notifyChange } from './change-feed.ts';
import {
  describeIssues,
  readDocument,
  unreadableStoredDocumentMessage,
  wireSchemaOf,
  type ReportUnreadable,
} from './read-document.ts';

type Doc = WireDoc<{ id: string; orgId: string; updatedAt: string }>;
export type PushError = RuleError;

/** 422: nothing of the push was applied; `errors` says which rows and why. */
export class PushRefused extends RuleBroken {
  constructor(readonly errors: PushError[]) {
    super('The push was refused.', { errors });
  }
}

const notYours = 'This document does not belong to you or to this organization.';

/**
 * Applies a push in one transaction, with a fixed number of statements whatever its size:
 * lock the ids, read the masters, write the batch. A row whose `assumedMasterState` differs
 * from the master is a conflict: it is not written, and the master comes back for the client
 * to resolve. A row that breaks a rule refuses the whole push (PushRefused) and nothing is
 * applied; every row is still checked, so the client learns every reason at once.
 */
export async function pushChanges(
  db: Db,
  collection: AnyReplicatedCollection,
  actor: Actor,
  scope: Scope,
  rows: PushRow[],
  reportUnreadable: ReportUnreadable = () => {},
  now = new Date(),
) {
  const wireSchema = wireSchemaOf(collection);
  const errors: PushError[] = [];
  const parsed: Array<{ next: Doc; assumed: unknown }> = [];
  for (const row of rows) {
    const id = typeof row.newDocumentState.id === 'string' ? row.newDocumentState.id : '';
    // Refused here (422), not failed at the write (500, which a device retries for ever) nor
    // stored changed (a lone surrogate comes back as U+FFFD).
    const textProblem = unstorableTextIn(row.newDocumentState);
    if (textProblem) {
      errors.push({ id, message: textProblem });
      continue;
    }
    const result = wireSchema.safeParse(row.newDocumentState);
    if (!result.success) {
      errors.push({ id, message: describeIssues(result.error) });
      continue;
    }
    const next = result.data as Doc;
    const denied = accessProblem(collection, scope, next);
    // A stamp from a clock far ahead would win every "later change wins" (decision 0046).
    const aheadOfUs = changeStampRefusal(next.updatedAt, now);
    if (denied) errors.push({ id, message: denied });
    else if (aheadOfUs) errors.push({ id, message: aheadOfUs });
    else if (parsed.some((p) => p.next.id === id))
      errors.push({ id, message: 'The same document appears twice in one push.' });
    else parsed.push({ next, assumed: row.assumedMasterState ?? null });
  }
  if (parsed.length === 0) {
    if (errors.length) throw new PushRefused(errors);
    return [];
  }
  // One lock order for every push, so two pushes touching the same documents cannot deadlock.
  parsed.sort((a, b) => (a.next.id < b.next.id ? -1 : a.next.id > b.next.id ? 1 : 0));
  const ids = parsed.map((p) => p.next.id);
  const { serialiseOn } = collection;
  const groups = serialiseOn ? [...new Set(parsed.map((p) => serialiseOn(p.next)))].sort() : [];

  return db.transaction(async (tx) => {
    // Serialises writers of each id, also while the row does not exist yet; taken in the
    // array's order: the collection's groups first (the feature's own writers lock those
    // before reading), then the ids, each sorted.
    await tx.execute(
      sql`select count(pg_advisory_xact_lock(hashtextextended(id, 0))) from unnest(array[${sql.join(
        [...groups, ...ids].map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]) as id`,
    );
    // Keyed by the lower-case id, as PostgreSQL matches UUIDs whatever their case (ids are
    // already refused unless lower-case; this keeps a master from ever being missed).
    // Read for update, in id order: a feature's own writers change rows in place without the
    // id lock (a rename in settings, tags set in the CRM), so the row lock is what makes them
    // take turns with this push — the master compared is then the one overwritten.
    const masters = new Map<string, Doc>();
    const unreadable = new Set<string>();
    for (const row of (await tx
      .select()
      .from(collection.table)
      .where(inArray(collection.table.id, ids))
      .orderBy(collection.table.id)
      .for('update')) as Array<{ id: string }>) {
      const read = readDocument(collection, row);
      if ('doc' in read) masters.set(row.id.toLowerCase(), read.doc);
      else {
        unreadable.add(row.id.toLowerCase());
        reportUnreadable({ collection: collection.name, id: row.id, reason: read.reason });
      }
    }
    const conflicts: Doc[] = [];
    const changes: Array<Change<{ id: string; orgId: string }>> = [];
    for (const { next, assumed } of parsed) {
      const master = masters.get(next.id.toLowerCase()) ?? null;
      // Neither overwritten (whose is it?) nor answered as a conflict (it cannot be sent).
      if (unreadable.has(next.id.toLowerCase()))
        errors.push({ id: next.id, message: unreadableStoredDocumentMessage });
      else if (master && accessProblem(collection, scope, master))
        errors.push({ id: next.id, message: notYours });
      else if (
        master &&
        (assumed === null || !isDeepStrictEqual(normalise(wireSchema, assumed), master))
      )
        conflicts.push(master);
      else changes.push({ next, master });
    }
    if (changes.length) errors.push(...(await collection.writeBatch(tx as Tx, actor, changes)));
    if (errors.length) throw new PushRefused(errors);
    const owners = new Set(
      changes.flatMap(({ next, master }) => [
        collection.ownerOf(next),
        ...(master ? [collection.ownerOf(master)] : []),
      ]),
    );
    if (owners.size)
      await notifyChange(tx as Tx, {
        collection: collection.name,
        orgId: scope.orgId,
        ownerIds: [...owners],
      });
    return conflicts;
  });
}

function accessProblem(collection: AnyReplicatedCollection, scope: Scope, doc: Doc): string | null {
  if (doc.orgId !== scope.orgId) return notYours;
  if (scope.ownerIds && !scope.ownerIds.includes(collection.ownerOf(doc))) return notYours;
  if (!scope.writable) return 'You can read these documents but not change them.';
  return null;
}

/** The client's idea of the master, in the same canonical shape as ours (unknown keys dropped). */
function normalise(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}
