import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { CollectionName } from '@platform/schema/sync/collections';
import type { Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Actor, Scope } from './actor.ts';

export type WireDoc<Doc> = Doc & { _deleted: boolean };

/** The columns every replicated table has (see schema/src/db/replicated-tables.ts). */
export type ReplicatedTable = PgTable & {
  id: AnyPgColumn;
  orgId: AnyPgColumn;
  txid: AnyPgColumn;
  deleted: AnyPgColumn;
};

/**
 * A replicated collection on the server: how to read its rows as documents, who may see
 * what, and the feature service that writes it. The engine (pull.ts, push.ts) does the rest.
 */
export type ReplicatedCollection<Doc extends { id: string; orgId: string }, Row> = {
  name: CollectionName;
  docSchema: z.ZodType<Doc>;
  table: ReplicatedTable;
  /** The column naming the person a document belongs to, for person-scoped access. */
  ownerColumn: AnyPgColumn;
  ownerOf: (doc: Doc) => string;
  /** Throws Forbidden when the actor may not replicate this collection at all. */
  scopeFor: (actor: Actor) => Scope;
  toDoc: (row: Row) => WireDoc<Doc>;
  /**
   * The feature service's write of a whole push: checks the domain rules of every change and
   * stores them all in one statement — or, when any breaks a rule, stores nothing and returns
   * the reasons. `master` is the current server state, null for a new document.
   */
  writeBatch: (
    tx: Tx,
    actor: Actor,
    changes: Array<Change<Doc>>,
    context: WriteContext,
  ) => Promise<RuleError[]>;
  /**
   * Where the feature's rules span several documents (a person's time entries: one clock, no
   * overlaps), the key their writes serialise on. The push locks these keys before the
   * documents' ids, so the feature's own writers can take the same lock first and then read.
   */
  serialiseOn?: (doc: Doc) => string;
};

/**
 * What a feature's write may use besides the transaction: the job queue, for work that follows
 * a write (a waitlist promotion's notice) — queued in the same transaction, so it exists only
 * if the write commits. Null where no queue runs (tests that push without an app).
 */
export type WriteContext = { jobs: JobQueue | null; now: Date };

export type Change<Doc> = { next: WireDoc<Doc>; master: WireDoc<Doc> | null };
export type RuleError = { id: string; message: string };

// The registry holds collections of different document types side by side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: each entry is checked where it is defined
export type AnyReplicatedCollection = ReplicatedCollection<any, any>;
