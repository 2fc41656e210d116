import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { rosterItems } from '@platform/schema/db';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/open-database.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from './auth-fixtures.ts';
import type { CookieJar } from './cookie-jar.ts';
import { pullBound } from '../sync/pull-bound.ts';

export type Person = { id: string; email: string; jar: CookieJar };

/** One organisation with a manager, a staff member who tracks only their own time, and a family. */
export async function seedSyncOrg(app: FastifyInstance, db: Db) {
  const org = await insertTestOrg(db);
  const person = async (kind: 'staff' | 'customer', claims?: string[]) => {
    const user = await insertTestUser(db);
    await addMembership(db, user.id, org.id, kind, claims);
    return user;
  };
  const managerUser = await person('staff');
  const staffUser = await person('staff', ['manage-own-time-tracking']);
  const parentUser = await person('customer');
  const child = await insertTestUser(db, { email: null, withPassword: false, firstName: 'Kid' });
  await addMembership(db, child.id, org.id, 'customer');
  await linkChild(db, parentUser.id, child.id, org.id);
  const otherCustomer = await person('customer');
  const login = async (
    user: { id: string; email: string | null },
    profileType: 'use-org' | 'use-customer',
  ): Promise<Person> => {
    const { jar } = await logInAs(app, user.email ?? '', { profileType, profileOrgId: org.id });
    return { id: user.id, email: user.email ?? '', jar };
  };
  return {
    org,
    manager: await login(managerUser, 'use-org'),
    staff: await login(staffUser, 'use-org'),
    parent: await login(parentUser, 'use-customer'),
    other: await login(otherCustomer, 'use-customer'),
    childId: child.id,
    otherCustomerId: otherCustomer.id,
  };
}

/** A new customer of the organisation with nothing but a membership (not signed in). */
export async function insertCustomer(
  db: Db,
  orgId: string,
  values: Parameters<typeof insertTestUser>[1] = {},
) {
  const user = await insertTestUser(db, values);
  await addMembership(db, user.id, orgId, 'customer');
  return user;
}

/** The ids of `n` new customers of the organisation, made one after the other (not signed in). */
export async function insertCustomers(db: Db, orgId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await insertCustomer(db, orgId)).id);
  return ids;
}

/** A new customer of the organisation, signed in to its customer app. */
export async function signedInCustomer(
  app: FastifyInstance,
  db: Db,
  orgId: string,
): Promise<Person> {
  const user = await insertCustomer(db, orgId);
  const { jar } = await logInAs(app, user.email ?? '', {
    profileType: 'use-customer',
    profileOrgId: orgId,
  });
  return { id: user.id, email: user.email ?? '', jar };
}

/** Where the default entries are laid out: from here, one per hour, far from the days tests name. */
const FIRST_SLOT = Date.parse('2020-01-06T09:00:00.000Z');
const SLOT_MS = 3_600_000;
let nextSlot = 0;

/**
 * A finished time entry. Entries of one person must not overlap (issue 6), so each call gets
 * an hour of its own — half an hour of work in it — unless the test names the times; a
 * `startTime` without an `endTime` gets the same half hour. Pass `endTime: null` for a running
 * entry.
 */
export function timeEntry(orgId: string, userId: string, overrides: Record<string, unknown> = {}) {
  const slot = FIRST_SLOT + nextSlot++ * SLOT_MS;
  const startTime =
    typeof overrides.startTime === 'string' ? overrides.startTime : new Date(slot).toISOString();
  const endTime = new Date(Date.parse(startTime) + SLOT_MS / 2).toISOString();
  return {
    id: randomUUID(),
    orgId,
    userId,
    startTime,
    endTime: endTime as string | null,
    breakIntervals: [],
    updatedAt: endTime,
    _deleted: false,
    ...overrides,
  };
}

export function booking(
  orgId: string,
  customerUserId: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    id: randomUUID(),
    orgId,
    customerUserId,
    customerName: '',
    occurrenceId: 'yoga-2026-11-24T18:00',
    // A new booking is a request; the server's verdict replicates back (decision 0066).
    status: 'requested',
    appointment: null,
    joinWaitlist: false,
    paidWith: null,
    refusal: null,
    requestedAt: '2026-11-23T09:00:00.000Z',
    decidedAt: null,
    checkedInAt: null,
    updatedAt: '2026-11-23T09:00:00.000Z',
    _deleted: false,
    ...overrides,
  };
}

/** Roster items are created by the CRM (issue 7); tests insert them directly. */
export async function insertRosterItem(
  db: Db,
  orgId: string,
  user: { id: string; email: string | null },
  /** What the list says of them otherwise (names, an address of its own…). */
  values: Partial<Omit<typeof rosterItems.$inferInsert, 'orgId' | 'userId'>> = {},
) {
  const [row] = await db
    .insert(rosterItems)
    .values({
      orgId,
      userId: user.id,
      firstName: 'Rita',
      lastName: 'Roster',
      email: user.email,
      updatedAt: new Date('2026-11-01T00:00:00.000Z'),
      ...values,
    })
    .returning();
  if (!row) throw new Error('roster item not inserted');
  return row;
}

type TestApp = { app: FastifyInstance; db: Db };

/** A device's pull of a collection (`query`: '?id=…&lsn=…&batchSize=…'), once writes are visible. */
export async function pullAs(t: TestApp, who: Person, collection: string, query = '') {
  await waitForVisibility(t.db);
  return t.app.inject({
    method: 'GET',
    url: `/api/sync/${collection}/pull${query}`,
    headers: who.jar.headers(),
  });
}

/** A device's push of replication rows, as sent (whatever their shape; a string is sent as JSON text). */
export function pushAs(t: TestApp, who: Person, collection: string, rows: unknown) {
  const json = typeof rows === 'string' ? { 'content-type': 'application/json' } : {};
  return t.app.inject({
    method: 'POST',
    url: `/api/sync/${collection}/push`,
    headers: { ...who.jar.headers(), ...json },
    payload: rows as object,
  });
}

/** A push of documents the device has never seen on the server (no assumed master). */
export function pushNewAs(t: TestApp, who: Person, collection: string, docs: unknown[]) {
  return pushAs(
    t,
    who,
    collection,
    docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
  );
}

/** A replicated document as a device holds it. */
export type SyncDoc = Record<string, unknown> & { id: string };

/**
 * The document `id` as `who`'s device holds it after a pull of up to 1,000 documents of the
 * collection. Throws when the pull does not answer 200 or does not hold the document.
 */
export async function pulledAs(
  t: TestApp,
  who: Person,
  collection: string,
  id: string,
): Promise<SyncDoc> {
  const res = await pullAs(t, who, collection, '?batchSize=1000');
  if (res.statusCode !== 200)
    throw new Error(`pull of ${collection} answered ${res.statusCode}: ${res.body}`);
  const found = (res.json() as { documents: SyncDoc[] }).documents.find((d) => d.id === id);
  if (!found) throw new Error(`${collection} ${id} not pulled`);
  return found;
}

/** A push of a change to a document the device holds as `master`: `next` over it, updated now. */
export function pushChangeAs(
  t: TestApp,
  who: Person,
  collection: string,
  master: object,
  next: Record<string, unknown>,
) {
  return pushAs(t, who, collection, [
    {
      assumedMasterState: master,
      newDocumentState: { ...master, updatedAt: new Date().toISOString(), ...next },
    },
  ]);
}

/**
 * Waits until every transaction running now that may write to this database has finished (the
 * pull's visibility bound has passed them, decision 0076). Tests that pull right after writing
 * call this.
 *
 * Then, for a few seconds at most, until every transaction running now in any database has
 * finished: one of another database (another test file's) that is still running when the
 * pull's statement starts and ends before its bound looks at who is running is kept in that
 * pull's bound (nothing is known of it then — decision 0076, consequences), and a pull right
 * after the write would miss the row. Once it has ended it cannot be in a later snapshot.
 */
export async function waitForVisibility(db: Db): Promise<void> {
  const read = async (position: SQL) => {
    const result = await db.execute(sql`select ${position}::text as v`);
    return BigInt(rowsOf<{ v: string }>(result)[0]?.v ?? '0');
  };
  const horizon = await read(sql`pg_snapshot_xmax(pg_current_snapshot())`);
  const deadline = Date.now() + 10_000;
  while ((await read(pullBound())) < horizon && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  const elsewhere = Date.now() + 3_000;
  while (
    (await read(sql`pg_snapshot_xmin(pg_current_snapshot())`)) < horizon &&
    Date.now() < elsewhere
  )
    await new Promise((r) => setTimeout(r, 10));
}

/**
 * What may be holding a replication feed back (decision 0005: rows are pulled only below the
 * oldest transaction still running that may write to this database, decision 0076): the row's
 * txid, the bound, and every transaction writing now, in any database — for a test's message
 * when a feed times out.
 */
export async function whatHoldsTheFeed(db: Db, table: string, rowId: string): Promise<string> {
  const [state] = rowsOf<{ txid: string | null; bound: string; writers: unknown }>(
    await db.execute(sql`select
      (select txid::text from ${sql.identifier(table)} where id = ${rowId}) as txid,
      ${pullBound()}::text as bound,
      (select json_agg(json_build_object('db', datname, 'xid', backend_xid::text,
        'seconds', round(extract(epoch from now() - xact_start)), 'state', state,
        'query', left(query, 120)))
       from pg_stat_activity where backend_xid is not null) as writers`),
  );
  return `the row's txid ${state?.txid ?? 'unknown'}, rows pullable below ${state?.bound}; writing transactions now: ${JSON.stringify(state?.writers)}`;
}
