import { isDeepStrictEqual } from 'node:util';
import { and, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { changeStampRefusal } from '@platform/schema/sync/change-stamp.rules';
import { unstorableTextIn } from '@platform/schema/sync/storable-text.rules';
import { syncMessages } from '@platform/schema/sync/sync.messages';
import type { PushRow } from '@platform/schema/sync/sync.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { sentTogether } from '../db/sent-together.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor, Scope } from './actor.ts';
import type {
  AnyReplicatedCollection,
  Change,
  ReplicatedTable,
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
  /** 422 `{ errors }` (issue 4 wire contract): the client shows each row's reason. */
  override toBody() {
    return { errors: this.errors };
  }
}

const notYours = 'This document does not belong to you or to this organization.';

/**
 * Applies a push in one transaction, with a fixed number of statements whatever its size:
 * lock the ids, read the masters, write the batch. A row whose `assumedMasterState` differs
 * from the master is a conflict: it is not written, and the master comes back for the client
 * to resolve. A row that breaks a rule refuses the whole push (PushRefused) and nothing is
 * applied; every row is still checked, so the client learns every reason at once. A row naming
 * a document out of the pusher's reach, or one the server does not have while the row assumes
 * its state, is refused with the same words either way (decision 0048).
 */
export async function pushChanges(
  db: Db,
  collection: AnyReplicatedCollection,
  actor: Actor,
  scope: Scope,
  rows: PushRow[],
  reportUnreadable: ReportUnreadable = () => {},
  now = new Date(),
  jobs: JobQueue | null = null,
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
    // Keyed by the lower-case id, as PostgreSQL matches UUIDs whatever their case (ids are
    // already refused unless lower-case; this keeps a master from ever being missed).
    // Read for update, in id order: a feature's own writers change rows in place without the
    // id lock (a rename in settings, tags set in the CRM), so the row lock is what makes them
    // take turns with this push — the master compared is then the one overwritten.
    const masters = new Map<string, Doc>();
    const unreadable = new Set<string>();
    // Rows out of the pusher's reach are only known to exist: never read as documents.
    const elsewhere = new Set<string>();
    const ownerKey = columnKeyOf(collection.table, collection.ownerColumn);
    // Sent together, in this order (decision 0075): each statement is started here, one
    // after the other, so the driver sends them in this order, and the database runs each
    // after the one before has finished, with a snapshot of its own — the reads see every push
    // that held these ids' locks before this one — for one round trip instead of three.
    // Serialises writers of each id, also while the row does not exist yet; taken in the
    // array's order: the collection's groups first (the feature's own writers lock those
    // before reading), then the ids, each sorted.
    const locked = tx
      .execute(
        sql`select count(pg_advisory_xact_lock(hashtextextended(id, 0))) from unnest(array[${sql.join(
          [...groups, ...ids].map((id) => sql`${id}`),
          sql`, `,
        )}]::text[]) as id`,
      )
      .then(() => null);
    // A pull's row filter (a kiosk's current bookings) bounds a push's reach too: a row out of
    // it is answered as anyone else's, never sent back as a conflict.
    const inFilter = scope.rowFilter
      ? tx
          .select({ id: collection.table.id })
          .from(collection.table)
          .where(and(inArray(collection.table.id, ids), scope.rowFilter))
          .then((rows) => rows as Array<{ id: string }>)
      : null;
    const read = tx
      .select()
      .from(collection.table)
      .where(inArray(collection.table.id, ids))
      .orderBy(collection.table.id)
      .for('update')
      .then((rows) => rows as Array<Record<string, unknown> & { id: string; orgId: string }>);
    const [, filteredRows, stored] = await sentTogether([locked, inFilter, read]);
    const filtered = filteredRows ? new Set(filteredRows.map((row) => row.id.toLowerCase())) : null;
    for (const row of stored) {
      const id = row.id.toLowerCase();
      if (
        !withinScope(scope, row.orgId, String(row[ownerKey])) ||
        (filtered && !filtered.has(id))
      ) {
        elsewhere.add(id);
        continue;
      }
      const document = readDocument(collection, row);
      if ('doc' in document) masters.set(id, document.doc);
      else {
        unreadable.add(id);
        reportUnreadable({ collection: collection.name, id: row.id, reason: document.reason });
      }
    }
    const conflicts: Doc[] = [];
    const changes: Array<Change<{ id: string; orgId: string }>> = [];
    for (const { next, assumed } of parsed) {
      const id = next.id.toLowerCase();
      const master = masters.get(id) ?? null;
      // Neither overwritten (whose is it?) nor answered as a conflict (it cannot be sent).
      if (unreadable.has(id))
        errors.push({ id: next.id, message: unreadableStoredDocumentMessage });
      // Someone else's, or a document the server does not have while the row says it knows
      // its state: one answer, so a push cannot tell which (decision 0048).
      else if (elsewhere.has(id) || (!master && assumesLiveMaster(assumed)))
        errors.push({ id: next.id, message: syncMessages.notAmongYours });
      else if (
        master &&
        (assumed === null || !isDeepStrictEqual(normalise(wireSchema, assumed), master))
      )
        conflicts.push(master);
      else changes.push({ next, master });
    }
    const owners = new Set(
      changes.flatMap(({ next, master }) => [
        collection.ownerOf(next),
        ...(master ? [collection.ownerOf(master)] : []),
      ]),
    );
    // The announcement goes out with the batch's first statements (NOTIFY is delivered at
    // commit, and not at all if the push is refused and rolled back).
    const [ruleErrors] = await sentTogether([
      changes.length ? collection.writeBatch(tx as Tx, actor, changes, { jobs, now }) : [],
      owners.size
        ? notifyChange(tx as Tx, {
            collection: collection.name,
            orgId: scope.orgId,
            ownerIds: [...owners],
          })
        : null,
    ]);
    errors.push(...ruleErrors);
    if (errors.length) throw new PushRefused(errors);
    return conflicts;
  });
}

function accessProblem(collection: AnyReplicatedCollection, scope: Scope, doc: Doc): string | null {
  if (!withinScope(scope, doc.orgId, collection.ownerOf(doc))) return notYours;
  if (!scope.writable) return 'You can read these documents but not change them.';
  return null;
}

function withinScope(scope: Scope, orgId: string, ownerId: string): boolean {
  return orgId === scope.orgId && (!scope.ownerIds || scope.ownerIds.includes(ownerId));
}

/**
 * Whether a row says the server holds a live document: an assumed state that is not a
 * tombstone. A device records "the server never had it" as a tombstone (it settles a refused
 * new document on one), so such a row may still create the document, as one without any.
 */
function assumesLiveMaster(assumed: unknown): boolean {
  return (
    assumed !== null &&
    !(typeof assumed === 'object' && (assumed as { _deleted?: unknown })._deleted === true)
  );
}

/** The property name drizzle gives a column in the rows it reads. */
function columnKeyOf(table: ReplicatedTable, column: AnyPgColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(
    ([, candidate]) => candidate === column,
  );
  if (!entry) throw new Error(`${column.name} is not a column of this collection's table`);
  return entry[0];
}

/** The client's idea of the master, in the same canonical shape as ours (unknown keys dropped). */
function normalise(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}
