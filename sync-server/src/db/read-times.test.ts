import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeEntries } from '@platform/schema/db';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import { rowsOf, type Database } from './open-database.ts';

/** The first instant PostgreSQL stores (4714-11-24 BC) and the last one a JavaScript Date holds. */
const PG_FIRST_MS = -210_866_803_200_000;
const JS_LAST_MS = 8_640_000_000_000_000;

/** The instants Node used to misread: years 0–99 (0001 → 2001), BC, LMT offsets, the ends. */
const edges = [
  '0001-01-01T00:00:00.000Z',
  '0012-12-31T00:00:00.000Z',
  '0025-11-20T09:00:00.000Z',
  '0099-12-31T23:59:59.999Z',
  '0100-01-01T00:00:00.000Z',
  '1850-01-01T09:00:00.000Z',
  '1883-11-18T16:59:59.999Z',
  '1950-01-01T09:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '2199-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
  '+010000-01-01T00:00:00.000Z',
  '0000-06-15T12:00:00.000Z',
  '-004000-02-29T00:00:00.000Z',
].map((iso) => Date.parse(iso));
edges.push(PG_FIRST_MS, JS_LAST_MS);

type Setup = {
  kind: 'postgres' | 'pglite';
  settings: Record<string, string> | undefined;
  processZone: string | undefined;
};

const setups = testDatabaseKinds.flatMap((kind): Setup[] => [
  { kind, settings: undefined, processZone: undefined },
  // LMT before 1883 (-04:56:02), daylight saving after; the server's own zone differs again.
  { kind, settings: { timezone: 'America/New_York' }, processZone: 'Asia/Kathmandu' },
  // An offset with seconds (-00:44:30) well inside the accepted years, until 1972; and dates
  // written day first.
  ...(kind === 'postgres'
    ? [
        {
          kind,
          settings: { timezone: 'Africa/Monrovia', datestyle: 'SQL, DMY' },
          processZone: 'America/St_Johns',
        },
      ]
    : []),
]);

describe.each(setups)(
  'times read and written on $kind, database settings $settings, process zone $processZone',
  ({ kind, settings, processZone }) => {
    let database: Database;
    let person: { orgId: string; userId: string };
    const previousZone = process.env.TZ;

    beforeAll(async () => {
      if (processZone) process.env.TZ = processZone;
      database = await createTestDatabase(kind, settings ? { settings } : {});
      const org = await insertTestOrg(database.db);
      const user = await insertTestUser(database.db, { withPassword: false });
      person = { orgId: org.id, userId: user.id };
    });
    afterAll(async () => {
      // Assigning undefined would set the text 'undefined'.
      if (previousZone === undefined) delete process.env.TZ;
      else process.env.TZ = previousZone;
      await database.close();
    });

    /** Rows whose times PostgreSQL computes from epoch milliseconds, never from our text. */
    const insertAt = async (instants: number[]) => {
      const ids = instants.map(() => randomUUID());
      // Whole hours, then the rest: interval × number goes through a float, exact only so far.
      const at = (ms: number) =>
        sql`'epoch'::timestamptz + ${String(Math.trunc(ms / 3_600_000))}::bigint * interval '1 hour' + ${String(ms % 3_600_000)}::bigint * interval '1 millisecond'`;
      const values = instants.map(
        (ms, i) =>
          sql`(${ids[i]}::uuid, ${person.orgId}::uuid, ${person.userId}::uuid, ${at(ms)}, now())`,
      );
      await database.db.execute(
        sql`insert into time_entries (id, org_id, user_id, start_time, updated_at) values ${sql.join(values, sql`, `)}`,
      );
      return ids;
    };

    // PGlite given other settings has them set over the app's own (see createTestDatabase).
    it.runIf(kind === 'postgres' || !settings)(
      'speaks UTC and ISO dates whatever the database says',
      async () => {
        const [row] = rowsOf<{ zone: string; style: string }>(
          await database.db.execute(
            sql`select current_setting('TimeZone') as zone, current_setting('DateStyle') as style`,
          ),
        );
        expect(row).toEqual({ zone: 'UTC', style: 'ISO, MDY' });
      },
    );

    it('reads every instant PostgreSQL and JavaScript both hold as the same instant', async () => {
      const instants = fc.integer({ min: PG_FIRST_MS, max: JS_LAST_MS });
      await fc.assert(
        fc.asyncProperty(fc.array(instants, { minLength: 1, maxLength: 40 }), async (sample) => {
          const written = [...sample, ...edges];
          const ids = await insertAt(written);
          const rows = await database.db
            .select({ id: timeEntries.id, startTime: timeEntries.startTime })
            .from(timeEntries)
            .where(inArray(timeEntries.id, ids));
          const read = new Map(rows.map((row) => [row.id, row.startTime.getTime()]));
          expect(ids.map((id) => read.get(id))).toEqual(written);
        }),
        { numRuns: 15 },
      );
    });

    it('writes every such instant as the same instant', async () => {
      const instants = fc.integer({ min: PG_FIRST_MS, max: JS_LAST_MS });
      await fc.assert(
        fc.asyncProperty(fc.array(instants, { minLength: 1, maxLength: 40 }), async (sample) => {
          const written = [...sample, ...edges];
          const ids = written.map(() => randomUUID());
          await database.db.insert(timeEntries).values(
            written.map((ms, i) => ({
              id: ids[i] ?? '',
              ...person,
              startTime: new Date(ms),
              updatedAt: new Date(),
            })),
          );
          const rows = rowsOf<{ id: string; ms: string }>(
            await database.db.execute(
              sql`select id, (extract(epoch from start_time) * 1000)::bigint::text as ms from time_entries where id = any(${sql.raw(`array[${ids.map((id) => `'${id}'`).join(',')}]`)}::uuid[])`,
            ),
          );
          const stored = new Map(rows.map((row) => [row.id, Number(row.ms)]));
          expect(ids.map((id) => stored.get(id))).toEqual(written);
        }),
        { numRuns: 15 },
      );
    });
  },
);
