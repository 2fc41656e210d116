import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingStatuses } from '@platform/schema/bookings/booking.zod';
import { NOTE_MAX } from '@platform/schema/crm/customer-note.zod';
import { normaliseTags } from '@platform/schema/crm/tags.rules';
import { replicatedCollections, type CollectionName } from '@platform/schema/sync/collections';
import { withDeleted } from '@platform/schema/sync/sync.zod';
import { addMembership, insertTestUser } from '../testing/auth-fixtures.ts';
import {
  acceptedInstant,
  hostileText,
  hostileTime,
  pushBody,
  strayField,
} from '../testing/hostile-document-values.ts';
import {
  insertRosterItem,
  pullAs,
  pushAs,
  seedSyncOrg,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds, type TestDatabaseOptions } from '../testing/test-database.ts';

/**
 * Issue 12, as a property of every collection devices push to: a push of a document with
 * hostile values is refused with a 4xx and changes nothing, or it is accepted and the next
 * pull hands the document back byte for byte (as the shared schema writes it, with the fields
 * the server owns filled in). No push and no pull ever answers 5xx — also on a database whose
 * time zone is not UTC, under a server process whose zone is neither.
 */
type Setup = { kind: 'postgres' | 'pglite'; database?: TestDatabaseOptions; processZone?: string };
const setups: Setup[] = [
  ...testDatabaseKinds.map((kind) => ({ kind })),
  ...(testDatabaseKinds.includes('postgres')
    ? [
        {
          kind: 'postgres' as const,
          database: { settings: { timezone: 'America/New_York' } },
          processZone: 'Asia/Kathmandu',
        },
      ]
    : []),
];

/** Each run is a push and a pull; a few dozen per collection keep a setup within seconds. */
const RUNS = 30;
const iso = (ms: number) => new Date(ms).toISOString();
type Doc = { id: string } & Record<string, unknown>;
type Row = { assumedMasterState: Doc | null; newDocumentState: Record<string, unknown> };

/** A new document's id: mostly a fresh one, sometimes one spelt as the server must refuse. */
const idForm = fc.constantFrom('fresh', 'fresh', 'fresh', 'upper-case', 'not-a-uuid');
const idOf = (form: string) =>
  form === 'upper-case' ? randomUUID().toUpperCase() : form === 'not-a-uuid' ? 'x' : randomUUID();

/** Some of these fields replaced by hostile values, or none (about half the documents). */
const overrides = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.option(fc.record(fields, { requiredKeys: [] }), { nil: {}, freq: 2 });

describe.each(setups)(
  'hostile documents on $kind, database $database, process zone $processZone',
  ({ kind, database, processZone }) => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    let a: Awaited<ReturnType<typeof seedSyncOrg>>;
    const previousZone = process.env.TZ;

    beforeAll(async () => {
      if (processZone) process.env.TZ = processZone;
      t = await createTestApp(kind, database ? { database } : {});
      a = await seedSyncOrg(t.app, t.db);
      await insertRosterItem(t.db, a.org.id, { id: a.otherCustomerId, email: a.other.email });
    });
    afterAll(async () => {
      // Assigning undefined would set the text 'undefined'.
      if (previousZone === undefined) delete process.env.TZ;
      else process.env.TZ = previousZone;
      await t.close();
    });

    /** A device's feed of a collection: each call pulls what is new. Every pull answers 200. */
    const feedOf = (who: Person, collection: CollectionName) => {
      let query = '';
      return async (): Promise<Doc[]> => {
        const documents: Doc[] = [];
        for (;;) {
          const response = await pullAs(t, who, collection, `?batchSize=1000${query}`);
          expect(response.statusCode, response.body).toBe(200);
          const page = response.json();
          documents.push(...page.documents);
          if (page.checkpoint) query = `&id=${page.checkpoint.id}&lsn=${page.checkpoint.lsn}`;
          if (page.documents.length < 1000) return documents;
        }
      };
    };

    /** The property, for one push of one row; answers the stored document when accepted. */
    const pushThenPull = async (
      who: Person,
      collection: CollectionName,
      feed: () => Promise<Doc[]>,
      row: Row,
      serverOwned: (doc: Doc) => Doc = (doc) => doc,
    ): Promise<Doc | null> => {
      const response = await pushAs(t, who, collection, pushBody([row]));
      expect(response.statusCode, response.body).toBeLessThan(500);
      // A pull hands out rows only below the oldest transaction still writing to this database
      // (decision 0005) — the job queue's own, on a loaded machine, can still be running when
      // the push answers — so the pull comes once those have finished, or an accepted document
      // would show up a run late (a full run failed so, 2026-11-29).
      await waitForVisibility(t.db);
      const pulled = await feed();
      if (response.statusCode !== 200) {
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(pulled).toEqual([]);
        return null;
      }
      expect(response.json()).toEqual([]);
      const wire = withDeleted(replicatedCollections[collection].schema);
      const expected = serverOwned(wire.parse(row.newDocumentState) as Doc);
      expect(pulled.map((doc) => JSON.stringify(doc))).toEqual([JSON.stringify(expected)]);
      return pulled[0] ?? null;
    };

    it('time entries', async () => {
      const feed = feedOf(a.manager, 'time-entries');
      await feed();
      const entry = fc.record({
        idForm,
        start: acceptedInstant,
        minutes: fc.option(fc.integer({ min: 1, max: 36 * 60 }), { nil: null }),
        withBreak: fc.boolean(),
        updatedAt: acceptedInstant.map(iso),
        hostile: overrides({
          updatedAt: hostileTime,
          startTime: hostileTime,
          endTime: hostileTime,
          breakIntervals: fc.oneof(
            fc.array(fc.record({ startTime: hostileTime, endTime: hostileTime }), {
              maxLength: 52,
            }),
            hostileTime,
          ),
          userId: fc.constant(randomUUID()),
          stray: strayField,
        }),
      });
      await fc.assert(
        fc.asyncProperty(
          entry,
          async ({ idForm, start, minutes, withBreak, updatedAt, hostile }) => {
            // A person of their own each run: the overlap rule is not what this is about.
            const person = await insertTestUser(t.db, { withPassword: false });
            await addMembership(t.db, person.id, a.org.id, 'staff', ['manage-own-time-tracking']);
            const end = minutes === null ? null : start + minutes * 60_000;
            const breakOf = (from: number, to: number | null) => ({
              startTime: iso(from),
              endTime: to === null ? null : iso(to),
            });
            const doc = {
              id: idOf(idForm),
              orgId: a.org.id,
              userId: person.id,
              startTime: iso(start),
              endTime: end === null ? null : iso(end),
              breakIntervals: !withBreak
                ? []
                : end === null
                  ? [breakOf(start + 60_000, null)]
                  : [breakOf(start + (end - start) / 4, start + (end - start) / 2)],
              updatedAt,
              _deleted: false,
              ...hostile,
            };
            await pushThenPull(a.manager, 'time-entries', feed, {
              assumedMasterState: null,
              newDocumentState: doc,
            });
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('bookings', async () => {
      const feed = feedOf(a.manager, 'bookings');
      await feed();
      const booking = fc.record({
        idForm,
        customerUserId: fc.constantFrom(a.parent.id, a.childId),
        occurrenceId: hostileText(100),
        status: fc.constantFrom(...bookingStatuses),
        updatedAt: acceptedInstant.map(iso),
        hostile: overrides({
          updatedAt: hostileTime,
          status: fc.oneof(fc.string(), fc.constant(null)),
          customerUserId: fc.constant(randomUUID()),
          stray: strayField,
        }),
      });
      await fc.assert(
        fc.asyncProperty(booking, async ({ idForm, hostile, ...fields }) => {
          const doc = { id: idOf(idForm), orgId: a.org.id, ...fields, _deleted: false, ...hostile };
          await pushThenPull(a.manager, 'bookings', feed, {
            assumedMasterState: null,
            newDocumentState: doc,
          });
        }),
        { numRuns: RUNS },
      );
    });

    it('customer notes', async () => {
      const feed = feedOf(a.manager, 'customer-notes');
      await feed();
      const note = fc.record({
        idForm,
        body: hostileText(NOTE_MAX),
        authorName: hostileText(300),
        // Not in the future: notes are dated when written (decision 0013).
        createdAt: fc.integer({ min: Date.parse('1900-01-01'), max: Date.now() }).map(iso),
        updatedAt: acceptedInstant.map(iso),
        hostile: overrides({
          createdAt: hostileTime,
          updatedAt: hostileTime,
          authorId: fc.constant(randomUUID()),
          stray: strayField,
        }),
      });
      await fc.assert(
        fc.asyncProperty(note, async ({ idForm, hostile, ...fields }) => {
          const doc = {
            id: idOf(idForm),
            orgId: a.org.id,
            userId: a.otherCustomerId,
            authorId: a.manager.id,
            ...fields,
            _deleted: false,
            ...hostile,
          };
          // The author's name is the server's, whatever the device wrote (seeded as Test User).
          await pushThenPull(
            a.manager,
            'customer-notes',
            feed,
            { assumedMasterState: null, newDocumentState: doc },
            (expected) => ({ ...expected, authorName: 'Test User' }),
          );
        }),
        { numRuns: RUNS },
      );
    });

    it('roster items (changes to the one on the roster)', async () => {
      const feed = feedOf(a.manager, 'roster');
      let [master] = await feed();
      if (!master) throw new Error('the roster item was not pulled');
      const change = fc.record({
        // A stored number is E.164 (issue 14): hostile text is refused, real numbers kept.
        phone: fc.option(
          fc.oneof(fc.constantFrom('+12015550123', '+442079460958'), hostileText(40)),
          {
            nil: null,
          },
        ),
        tags: fc.array(hostileText(60), { maxLength: 5 }),
        updatedAt: acceptedInstant.map(iso),
        hostile: overrides({
          tags: fc.array(fc.constant('tag'), { minLength: 51, maxLength: 51 }),
          updatedAt: hostileTime,
          athlete: fc.constant({ id: a.otherCustomerId, fullName: 'Someone Else' }),
          stray: strayField,
        }),
      });
      await fc.assert(
        fc.asyncProperty(change, async ({ hostile, ...fields }) => {
          const current = master as Doc;
          const next = { ...current, ...fields, ...hostile };
          // The server keeps one spelling of each tag (tags.rules.ts, issue 14).
          const stored = await pushThenPull(
            a.manager,
            'roster',
            feed,
            { assumedMasterState: current, newDocumentState: next },
            (doc) => ({ ...doc, tags: normaliseTags(doc.tags as string[]) }),
          );
          if (stored) master = stored;
        }),
        { numRuns: RUNS },
      );
    });
  },
);
