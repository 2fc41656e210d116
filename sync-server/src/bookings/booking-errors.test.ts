import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { errorCodesOf } from '../db/postgres-errors.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import { booking, insertCustomer, seedSyncOrg } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import type { Actor } from '../sync/actor.ts';
import { collectionDefinitions } from '../sync/collections/definitions.ts';
import { pushChanges } from '../sync/push.ts';

/**
 * A push sends statements together (decision 0075); when one of them fails, the error the push
 * reports — logged, and what an operator reads — is that statement's, never the "current
 * transaction is aborted" of a statement sent behind it (which, with fewer promise steps to
 * travel, used to arrive first on PostgreSQL). A trigger stands in for a real failure (the
 * capacity check constraint, a lost connection): it raises for one class time, or one person.
 */
describe.each(testDatabaseKinds)('a failing statement of a booking push on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let actor: Actor;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    actor = {
      userId: a.manager.id,
      view: 'org',
      orgId: a.org.id,
      claims: ['manage-schedule'],
      familyUserIds: [a.manager.id],
    };
    for (const [table, event, condition] of [
      ['class_occurrences', 'update', "new.title = 'Refused'"],
      ['bookings', 'insert', "new.customer_name = 'Refused Person'"],
    ] as const) {
      await t.db.execute(
        sql.raw(`create function refuse_${table}() returns trigger language plpgsql as $$
          begin
            if ${condition} then raise exception 'refused' using errcode = 'P0001'; end if;
            return new;
          end $$`),
      );
      await t.db.execute(
        sql.raw(`create trigger refuse_marked before ${event} on ${table}
          for each row execute function refuse_${table}()`),
      );
    }
  });
  afterAll(() => t?.close());

  const customer = async (firstName = 'Member', lastName = 'One') =>
    (await insertCustomer(t.db, a.org.id, { firstName, lastName })).id;
  const pushed = async (doc: ReturnType<typeof booking>) => {
    const collection = collectionDefinitions.bookings;
    return pushChanges(t.db, collection, actor, collection.scopeFor(actor), [
      { assumedMasterState: null, newDocumentState: doc },
    ]).then(
      () => null,
      (error: unknown) => error,
    );
  };

  it('reports the failing count update, not the change notice sent behind it (5 tries)', async () => {
    for (let i = 0; i < 5; i++) {
      const { occurrence } = await insertOccurrence(t.db, a.org.id, { title: 'Refused' });
      const error = await pushed(
        booking(a.org.id, await customer(), { occurrenceId: occurrence.id }),
      );
      expect(errorCodesOf(error)).toContain('P0001');
      expect(errorCodesOf(error)).not.toContain('25P02');
    }
  });

  it('reports the failing booking write, not the statements sent beside it (5 tries)', async () => {
    for (let i = 0; i < 5; i++) {
      const { occurrence } = await insertOccurrence(t.db, a.org.id, { title: 'Spin' });
      const error = await pushed(
        booking(a.org.id, await customer('Refused', 'Person'), { occurrenceId: occurrence.id }),
      );
      expect(errorCodesOf(error)).toContain('P0001');
      expect(errorCodesOf(error)).not.toContain('25P02');
    }
  });
});
