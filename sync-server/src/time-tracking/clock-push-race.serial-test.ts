import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { createTestApp } from '../testing/test-app.ts';
import { pushAs, seedSyncOrg, timeEntry, type Person } from '../testing/sync-fixtures.ts';
import { timeEntryToDoc } from './time-entries.repository.ts';

// Issue 12: a device's push and an /api/time-tracking clock move for the same person, raced
// with random offsets. A write the server acknowledged (200, not answered as a conflict) must
// be in the stored entry afterwards — a later move may build on it, never drop it. The rounds
// interleave on real PostgreSQL connections; serial because they hold locks on purpose.
describe.runIf(process.env.DATABASE_URL)('a push racing an API clock move', () => {
  const ROUNDS = 300;
  const HOUR = 3_600_000;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let orgId: string;
  let staff: Person;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    const seeded = await seedSyncOrg(t.app, t.db);
    orgId = seeded.org.id;
    staff = seeded.staff;
  });
  afterAll(() => t.close());

  const after = <T>(ms: number, run: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => setTimeout(() => run().then(resolve, reject), ms));
  const offset = () => Math.random() * 8;
  const iso = (ms: number) => new Date(ms).toISOString();

  it(`keeps every acknowledged write in ${ROUNDS} rounds of push, clock-out, push`, async () => {
    const lost: string[] = [];
    const unexpected: string[] = [];
    const breakPush = { acknowledged: 0, conflicts: 0 };
    // Each round lies three hours after the previous one (a running entry reaches forward), all
    // in the past.
    const first = Math.floor(Date.now() / HOUR) * HOUR - (ROUNDS + 1) * 3 * HOUR;
    for (let round = 0; round < ROUNDS; round++) {
      const base = first + round * 3 * HOUR;
      const e1 = timeEntry(orgId, staff.id, {
        startTime: iso(base),
        endTime: null,
        updatedAt: iso(base),
      });
      const opened = await pushAs(t, staff, 'time-entries', [
        { assumedMasterState: null, newDocumentState: e1 },
      ]);
      expect(opened.json()).toEqual([]);

      // P1: the device clocks out of E1 and straight into E2. P2: a break on E2, assuming P1's E2.
      const e1Closed = { ...e1, endTime: iso(base + HOUR), updatedAt: iso(base + HOUR) };
      const e2 = timeEntry(orgId, staff.id, {
        startTime: iso(base + HOUR),
        endTime: null,
        updatedAt: iso(base + HOUR),
      });
      const pause = {
        startTime: iso(base + HOUR + 600_000),
        endTime: iso(base + HOUR + 1_200_000),
      };
      const e2Break = { ...e2, breakIntervals: [pause], updatedAt: pause.endTime };
      const clockOutAt = iso(base + 2 * HOUR);

      const [p1, clockOut, p2] = await Promise.all([
        after(offset(), () =>
          pushAs(t, staff, 'time-entries', [
            { assumedMasterState: e1, newDocumentState: e1Closed },
            { assumedMasterState: null, newDocumentState: e2 },
          ]),
        ),
        after(offset(), () =>
          t.app.inject({
            method: 'POST',
            url: '/api/time-tracking',
            headers: staff.jar.headers(),
            payload: { action: 'clock-out', orgId, at: clockOutAt },
          }),
        ),
        after(offset(), () =>
          pushAs(t, staff, 'time-entries', [
            { assumedMasterState: e2, newDocumentState: e2Break },
          ]),
        ),
      ]);

      const rows = await t.db
        .select()
        .from(timeEntries)
        .where(inArray(timeEntries.id, [e1.id, e2.id]));
      const stored = new Map(rows.map((row) => [row.id, timeEntryToDoc(row)]));
      const e1Now = stored.get(e1.id);
      const e2Now = stored.get(e2.id);
      const acked = (res: { statusCode: number; json: () => unknown }) =>
        res.statusCode === 200 &&
        Array.isArray(res.json()) &&
        (res.json() as unknown[]).length === 0;

      // Refusals (422: an overlap once the clock-out closed E1 first) and conflicts are answers
      // the device acts on; anything else is not.
      for (const [name, res] of [
        ['P1', p1],
        ['P2', p2],
      ] as const)
        if (res.statusCode !== 200 && res.statusCode !== 422)
          unexpected.push(`round ${round}: ${name} answered ${res.statusCode} ${res.body}`);
      if (clockOut.statusCode !== 200)
        unexpected.push(
          `round ${round}: clock-out answered ${clockOut.statusCode} ${clockOut.body}`,
        );

      if (acked(p1) && (e1Now?.endTime !== e1Closed.endTime || e2Now?.startTime !== e2.startTime))
        lost.push(`round ${round}: P1's clock-out/in of E1/E2 was acknowledged and lost`);
      if (acked(p2)) breakPush.acknowledged++;
      else if (p2.statusCode === 200) breakPush.conflicts++;
      if (acked(p2) && !e2Now?.breakIntervals.some((b) => b.startTime === pause.startTime))
        lost.push(
          `round ${round}: P2's break was acknowledged and lost (E2 ends ${e2Now?.endTime})`,
        );
      if (clockOut.statusCode === 200 && ![e1Now, e2Now].some((e) => e?.endTime === clockOutAt))
        lost.push(`round ${round}: the API's clock-out was acknowledged and lost`);

      // Whatever happened, the next round needs the person clocked out.
      await t.db
        .update(timeEntries)
        .set({ endTime: new Date(clockOutAt) })
        .where(and(eq(timeEntries.userId, staff.id), isNull(timeEntries.endTime)));
    }
    expect(unexpected).toEqual([]);
    expect(lost, `${lost.length} of ${ROUNDS} rounds lost an acknowledged write`).toEqual([]);
    // The race was run both ways: some breaks landed before the clock-out, some after it.
    expect(breakPush.acknowledged).toBeGreaterThan(0);
    expect(breakPush.conflicts).toBeGreaterThan(0);
  });
});
