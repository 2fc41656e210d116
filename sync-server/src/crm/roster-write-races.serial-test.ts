import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { rosterItems } from '@platform/schema/db';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import { createTestApp } from '../testing/test-app.ts';
import { insertRosterItem, pushAs, seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import { rosterItemToDoc } from './roster.repository.ts';

// Issue 12: a server-side change of a roster item (a customer renaming themselves, staff
// setting tags in the CRM) raced against the front desk's push of a phone change, with random
// offsets. Whatever was acknowledged must be in the stored item afterwards: the server's change
// when it answered 200, the phone when the push answered 200 without a conflict. Real
// PostgreSQL connections; serial because the rounds hold locks on purpose.
describe.runIf(process.env.DATABASE_URL)('server changes of a roster item racing a push', () => {
  const ROUNDS = 250;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let frontDesk: Person;
  let customer: Person;
  let itemId: string;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    const seeded = await seedSyncOrg(t.app, t.db);
    frontDesk = seeded.manager;
    customer = seeded.other;
    itemId = (await insertRosterItem(t.db, seeded.org.id, customer)).id;
  });
  afterAll(() => t.close());

  const after = <T>(ms: number, run: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => setTimeout(() => run().then(resolve, reject), ms));
  const offset = () => Math.random() * 8;
  const stored = async () => {
    const [row] = await t.db.select().from(rosterItems).where(eq(rosterItems.id, itemId));
    if (!row) throw new Error('roster item missing');
    return rosterItemToDoc(row);
  };

  /**
   * Runs the rounds: `serverChange(round)` against a push of a new phone assuming the item as
   * it stood before the round; `kept(round, item)` says whether the server's change is in it.
   */
  async function race(
    serverChange: (round: number) => Promise<LightMyRequestResponse>,
    kept: (round: number, item: WireDoc<RosterItemDoc>) => boolean,
  ) {
    const lost: string[] = [];
    const unexpected: string[] = [];
    let conflicts = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // What the front desk's device last pulled.
      const master = await stored();
      // E.164, as every stored number is (issue 14).
      const phone = `+44207946${String(round).padStart(4, '0')}`;
      const [changed, pushed] = await Promise.all([
        after(offset(), () => serverChange(round)),
        after(offset(), () =>
          pushAs(t, frontDesk, 'roster', [
            {
              assumedMasterState: master,
              newDocumentState: { ...master, phone, updatedAt: new Date().toISOString() },
            },
          ]),
        ),
      ]);
      const now = await stored();
      if (changed.statusCode !== 200)
        unexpected.push(`round ${round}: the server change answered ${changed.statusCode}`);
      else if (!kept(round, now))
        lost.push(`round ${round}: the server change was acknowledged and lost`);
      if (pushed.statusCode !== 200)
        unexpected.push(`round ${round}: push answered ${pushed.statusCode} ${pushed.body}`);
      else if (pushed.json<unknown[]>().length > 0) conflicts++;
      else if (now.phone !== phone)
        lost.push(`round ${round}: the phone push was acknowledged and lost (${now.phone})`);
    }
    expect(unexpected).toEqual([]);
    expect(lost, `${lost.length} of ${ROUNDS} rounds lost an acknowledged write`).toEqual([]);
    // The race was run both ways: some pushes came after the change and were answered as conflicts.
    expect(conflicts).toBeGreaterThan(0);
    expect(conflicts).toBeLessThan(ROUNDS);
  }

  it(`keeps the customer's new name and the pushed phone in ${ROUNDS} rounds`, async () => {
    await race(
      (round) =>
        t.app.inject({
          method: 'POST',
          url: '/api/settings',
          headers: customer.jar.headers(),
          payload: { action: 'update-profile', firstName: `Name${round}`, lastName: 'Racer' },
        }),
      (round, item) => item.athlete.firstName === `Name${round}`,
    );
  });

  it(`keeps tags set in the CRM and the pushed phone in ${ROUNDS} rounds`, async () => {
    await race(
      (round) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/crm/customers/${itemId}/tags`,
          headers: frontDesk.jar.headers(),
          payload: { tags: [`round-${round}`] },
        }),
      (round, item) => item.tags.join() === `round-${round}`,
    );
  });
});
