import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRxDatabase } from 'rxdb/plugins/core';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { plainDocument } from '../../db/use-live-query.ts';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import {
  documentsToHold,
  latestById,
  monthDays,
  neighbourRanges,
  paddedWindow,
  sameDocuments,
  windowsAround,
} from './month-events.ts';

const at = (startsAt: string): OccurrenceDoc => ({
  id: crypto.randomUUID(),
  orgId: crypto.randomUUID(),
  classId: crypto.randomUUID(),
  appointmentTypeId: null,
  kind: 'class',
  title: startsAt,
  location: '',
  coachUserId: null,
  coachName: null,
  startsAt,
  endsAt: startsAt,
  capacity: 10,
  bookedCount: 0,
  waitlistCount: 0,
  cancelBy: startsAt,
  status: 'scheduled',
  detached: false,
  updatedAt: startsAt,
});

describe('the month view’s events', () => {
  // In New York, 03:00Z on the 2nd is still the 1st.
  const times = [
    '2027-03-01T15:00:00.000Z',
    '2027-03-01T13:00:00.000Z',
    '2027-03-02T03:00:00.000Z',
    '2027-03-01T14:00:00.000Z',
    '2027-03-01T12:00:00.000Z',
    '2027-03-02T15:00:00.000Z',
  ].map(at);

  it('draws the first few of each organisation day in time order, and counts the rest', () => {
    const newYork = monthDays(times, 'America/New_York', 3);
    expect(newYork.drawn.map((o) => o.startsAt)).toEqual([
      '2027-03-01T12:00:00.000Z',
      '2027-03-01T13:00:00.000Z',
      '2027-03-01T14:00:00.000Z',
      '2027-03-02T15:00:00.000Z',
    ]);
    expect(newYork.more).toEqual([['2027-03-01', 2]]);
    expect(monthDays(times, 'UTC', 3).more).toEqual([['2027-03-01', 1]]);
  });

  it('reads a view’s length either side of it, at most six weeks', () => {
    expect(
      paddedWindow({ from: '2027-03-01T00:00:00.000Z', to: '2027-03-08T00:00:00.000Z' }),
    ).toEqual({ from: '2027-02-22T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z' });
    const month = paddedWindow({
      from: '2027-03-01T00:00:00.000Z',
      to: '2027-04-12T00:00:00.000Z',
    });
    expect(month.from).toBe('2027-01-18T00:00:00.000Z');
  });

  it('reads the shown range by itself, and the same length before and after it, edge to edge', () => {
    const range = { from: '2027-03-01T00:00:00.000Z', to: '2027-03-08T00:00:00.000Z' };
    expect(windowsAround(range)).toEqual({
      before: { from: '2027-02-22T00:00:00.000Z', to: range.from },
      shown: range,
      after: { from: range.to, to: '2027-03-15T00:00:00.000Z' },
    });
  });

  it('reads what Previous and Next will show in a month across a daylight-saving change', () => {
    // November 2026 in New York: Monday 26 October (EDT) to Monday 7 December (EST).
    const november = {
      from: '2026-10-26T04:00:00.000Z',
      to: '2026-12-07T05:00:00.000Z',
      view: 'dayGridMonth',
    };
    expect(windowsAround(november, 'America/New_York')).toEqual({
      // October: from Monday 28 September; December: from Monday 30 November.
      before: { from: '2026-09-28T04:00:00.000Z', to: '2026-11-09T05:00:00.000Z' },
      shown: { from: november.from, to: november.to },
      after: { from: '2026-11-30T05:00:00.000Z', to: '2027-01-11T05:00:00.000Z' },
    });
  });

  it('steps weeks and days in the calendar’s zone, and a month whose first day is a Monday', () => {
    const week = { from: '2027-03-08T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z' };
    // New York moves its clocks on Sunday 14 March 2027: the week after is 7 local days.
    expect(neighbourRanges({ ...week, view: 'timeGridWeek' }, 'America/New_York')).toEqual({
      before: { from: '2027-03-01T05:00:00.000Z', to: '2027-03-08T05:00:00.000Z' },
      after: { from: '2027-03-15T04:00:00.000Z', to: '2027-03-22T04:00:00.000Z' },
    });
    expect(
      neighbourRanges(
        { from: '2027-03-14T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z', view: 'timeGridDay' },
        'America/New_York',
      ),
    ).toEqual({
      before: { from: '2027-03-13T05:00:00.000Z', to: '2027-03-14T05:00:00.000Z' },
      after: { from: '2027-03-15T04:00:00.000Z', to: '2027-03-16T04:00:00.000Z' },
    });
    // February 2027 begins on a Monday: the grid starts on the 1st.
    expect(
      neighbourRanges(
        { from: '2027-02-01T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z', view: 'dayGridMonth' },
        'UTC',
      )?.after,
    ).toEqual({ from: '2027-03-01T00:00:00.000Z', to: '2027-04-12T00:00:00.000Z' });
  });

  it('assumes nothing about a range it does not lay out itself', () => {
    // Not midnight in the zone, or a view it does not step: the padded window is read instead.
    const odd = { from: '2027-03-08T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z' };
    expect(neighbourRanges({ ...odd, view: 'timeGridWeek' }, 'America/New_York')).toBeNull();
    expect(neighbourRanges({ ...odd, view: 'multiMonthYear' }, 'UTC')).toBeNull();
    expect(windowsAround({ ...odd, view: 'timeGridWeek' }, 'America/New_York')).toEqual(
      windowsAround(odd),
    );
    expect(windowsAround({ ...odd, view: 'timeGridWeek' }, 'Not/A_Zone')).toEqual(
      windowsAround(odd),
    );
  });

  it('joins the reads with each class time once, at its latest change', () => {
    const [first, second] = times;
    const later = { ...first!, bookedCount: 4, updatedAt: '2027-03-01T16:00:00.000Z' };
    // A read that has not answered since its window moved still holds the earlier version.
    const joined = latestById([first!], [later, second!], [first!]);
    expect(joined).toHaveLength(2);
    expect(joined.find((o) => o.id === first!.id)?.bookedCount).toBe(4);
    expect(latestById([later], [first!])[0]?.bookedCount).toBe(4);
  });

  it('tells the same documents at the same changes apart from any change, in any order', () => {
    const [a, b] = times;
    expect(sameDocuments([a!, b!], [b!, a!])).toBe(true);
    expect(sameDocuments([a!, b!], [a!])).toBe(false);
    expect(sameDocuments([a!, b!], [a!, { ...b!, updatedAt: '2027-03-05T00:00:00.000Z' }])).toBe(
      false,
    );
    expect(sameDocuments([a!, b!], [a!, { ...b!, id: crypto.randomUUID() }])).toBe(false);
  });
});

// Two changes of one class time stamped in the same millisecond (its booked count moved by two
// bookings at once): the replica's revision tells the later, where `updatedAt` cannot.
describe('two changes in one millisecond', () => {
  it('takes the later revision of the replica, in either order, and draws it', async () => {
    const db = await createRxDatabase({
      name: `same-ms-${Math.random().toString(36).slice(2)}`,
      storage: getRxStorageMemory(),
    });
    try {
      const { times: stored } = await db.addCollections({
        times: {
          schema: {
            version: 0,
            primaryKey: 'id',
            type: 'object',
            properties: {
              id: { type: 'string', maxLength: 40 },
              startsAt: { type: 'string' },
              updatedAt: { type: 'string' },
              bookedCount: { type: 'number' },
            },
            required: ['id', 'startsAt', 'updatedAt', 'bookedCount'],
          },
        },
      });
      const stamp = '2027-03-01T15:00:00.000Z';
      const first = await stored!.insert({
        id: 'c1',
        startsAt: stamp,
        updatedAt: stamp,
        bookedCount: 1,
      });
      type Time = { id: string; startsAt: string; updatedAt: string; bookedCount: number };
      const one = plainDocument(first) as Time;
      const second = await first.incrementalPatch({ bookedCount: 2 });
      const two = plainDocument(second) as Time;
      expect(two.updatedAt).toBe(one.updatedAt);
      expect(latestById([one], [two])).toEqual([two]);
      expect(latestById([two], [one])).toEqual([two]);
      expect(sameDocuments([one], [two])).toBe(false);
      const window = { from: '2027-03-01T00:00:00.000Z', to: '2027-03-02T00:00:00.000Z' };
      expect(documentsToHold([one], [{ window, documents: [two], answered: true }])).toEqual([two]);
      expect(documentsToHold([two], [{ window, documents: [two], answered: true }])[0]).toBe(two);
    } finally {
      await db.remove();
    }
  });
});

describe('the class times the calendar holds (documentsToHold)', () => {
  type Doc = { id: string; startsAt: string; updatedAt: string };
  const DAY = 86_400_000;
  const start = Date.parse('2027-02-01T00:00:00.000Z');
  // Three class times a day over 200 days: the replica.
  const replica: Doc[] = Array.from({ length: 600 }, (_, i) => {
    const startsAt = new Date(start + Math.floor(i / 3) * DAY + (i % 3) * 3_600_000).toISOString();
    return { id: `c${i}`, startsAt, updatedAt: startsAt };
  });
  const within = (docs: readonly Doc[], w: { from: string; to: string }) =>
    docs.filter((d) => d.startsAt >= w.from && d.startsAt < w.to);

  /**
   * The staff calendar's month walked forwards as the page reads it: the range moves (the reads
   * still hold their answers for the windows before), then the shown range answers, then the
   * range after, then the range before. Counts the new lists handed to FullCalendar per move.
   */
  function walk(hold: typeof documentsToHold, moves: number) {
    // February 2027 begins on a Monday: its six-week grid is 1 February – 15 March.
    let range = {
      from: '2027-02-01T00:00:00.000Z',
      to: '2027-03-15T00:00:00.000Z',
      view: 'dayGridMonth',
    };
    let held: readonly Doc[] = [];
    const reads = {
      before: { docs: [] as Doc[], answered: false },
      shown: { docs: [] as Doc[], answered: false },
      after: { docs: [] as Doc[], answered: false },
    };
    const newLists: number[] = [];
    for (let move = 0; move <= moves; move++) {
      const windows = windowsAround(range, 'UTC');
      let lists = 0;
      const settle = () => {
        const next = hold(held, [
          { window: windows.before, documents: reads.before.docs, answered: reads.before.answered },
          { window: windows.shown, documents: reads.shown.docs, answered: reads.shown.answered },
          { window: windows.after, documents: reads.after.docs, answered: reads.after.answered },
        ]);
        if (next !== held) lists++;
        held = next;
      };
      for (const read of Object.values(reads)) read.answered = false;
      settle();
      for (const name of ['shown', 'after', 'before'] as const) {
        reads[name] = { docs: within(replica, windows[name]), answered: true };
        settle();
      }
      newLists.push(lists);
      // Once every read has answered, exactly the three windows' class times are held.
      const expected = within(replica, { from: windows.before.from, to: windows.after.to });
      expect(sameDocuments(held, expected)).toBe(true);
      range = { ...windows.after, view: 'dayGridMonth' };
    }
    return newLists;
  }

  it('hands FullCalendar one new list per month moved, holding exactly the three windows after', () => {
    const lists = walk(documentsToHold, 4);
    expect(lists.slice(1)).toEqual([1, 1, 1, 1]);
    // Joining the reads' answers as they come (what the page did before) hands it three.
    const joined = walk((held, reads) => {
      const read = latestById(...reads.map((r) => r.documents));
      return sameDocuments(held, read) ? held : read;
    }, 4);
    expect(joined.slice(1)).toEqual([3, 3, 3, 3]);
  });

  const window = { from: '2027-02-01T00:00:00.000Z', to: '2027-02-08T00:00:00.000Z' };
  const later = { from: '2027-02-08T00:00:00.000Z', to: '2027-02-15T00:00:00.000Z' };
  const [a, b, c] = replica;
  const inLater = replica[30]!;

  it('drops what an answered window no longer holds, also from a read yet to answer', () => {
    const held = [a!, b!, c!];
    // b was deleted: the answer for its window no longer holds it; a stale read still does.
    const next = documentsToHold(held, [
      { window, documents: [a!, c!], answered: true },
      { window: later, documents: [b!, inLater], answered: false },
    ]);
    expect(next.map((d) => d.id).sort()).toEqual([a!.id, c!.id, inLater.id].sort());
  });

  it('keeps what a window yet to answer holds, and takes a class time’s new revision', () => {
    const changed = { ...a!, updatedAt: '2027-02-01T12:00:00.000Z' };
    const held = [a!, inLater];
    const next = documentsToHold(held, [
      { window, documents: [changed], answered: true },
      { window: later, documents: [], answered: false },
    ]);
    expect(next).toEqual([inLater, changed]);
    // Nothing new: the same list, not an equal one.
    const same = documentsToHold(next, [
      { window, documents: [changed], answered: true },
      { window: later, documents: [], answered: false },
    ]);
    expect(same).toBe(next);
  });

  it('hands a week view only the weeks once its reads have answered, after a month', () => {
    const month = windowsAround(
      { from: '2027-02-01T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z', view: 'dayGridMonth' },
      'UTC',
    );
    const held = within(replica, { from: month.before.from, to: month.after.to });
    const week = windowsAround(
      { from: '2027-02-08T00:00:00.000Z', to: '2027-02-15T00:00:00.000Z', view: 'timeGridWeek' },
      'UTC',
    );
    const reads = (['before', 'shown', 'after'] as const).map((name) => ({
      window: week[name],
      documents: within(replica, week[name]),
      answered: true,
    }));
    const next = documentsToHold(held, reads);
    expect(
      sameDocuments(next, within(replica, { from: week.before.from, to: week.after.to })),
    ).toBe(true);
    // While one of them is under way, the month's class times are kept (nothing new to draw).
    expect(documentsToHold(held, [...reads.slice(0, 2), { ...reads[2]!, answered: false }])).toBe(
      held,
    );
  });

  it('counts a class time at a window’s end as the next window’s', () => {
    // a starts on 1 February at 00:00, the `to` of `before` and the `from` of `window`.
    const before = { from: '2027-01-25T00:00:00.000Z', to: a!.startsAt };
    const held = [a!];
    // Not in the answer for `before`: it is not in that window, and `window` has not answered.
    expect(
      documentsToHold(held, [
        { window: before, documents: [], answered: true },
        { window, documents: [], answered: false },
      ]),
    ).toBe(held);
    // `window` answered without it: gone.
    expect(
      documentsToHold(held, [
        { window: before, documents: [], answered: false },
        { window, documents: [], answered: true },
      ]),
    ).toEqual([]);
  });

  it('is settled after one step, sound, and loses nothing, as class times change, move and go (property)', () => {
    const day = (n: number) => new Date(start + n * DAY).toISOString();
    // Each class time as it was (its revision in `replica`) and as it is now: the same, a new
    // revision (a later stamp, perhaps moved up to nine days), or deleted.
    const arbitraryLife = fc.record({
      i: fc.integer({ min: 0, max: 599 }),
      now: fc.oneof(
        fc.constant<'same' | 'deleted'>('same'),
        fc.constant<'same' | 'deleted'>('deleted'),
        fc.integer({ min: -9, max: 9 }),
      ),
    });
    const arbitraryWindow = fc.record({
      from: fc.integer({ min: 0, max: 190 }),
      days: fc.integer({ min: 1, max: 42 }),
      answered: fc.boolean(),
      stale: fc.array(fc.nat(), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(arbitraryLife, { selector: (l) => l.i, maxLength: 80 }),
        fc.array(fc.record({ pick: fc.nat(), current: fc.boolean() }), { maxLength: 60 }),
        fc.array(arbitraryWindow, { minLength: 1, maxLength: 3 }),
        (lives, heldPicks, windows) => {
          const old = lives.map((l) => replica[l.i]!);
          const current = new Map<string, Doc>();
          for (const [k, l] of lives.entries()) {
            const was = old[k]!;
            if (l.now === 'deleted') continue;
            current.set(
              was.id,
              l.now === 'same'
                ? was
                : {
                    id: was.id,
                    startsAt: new Date(Date.parse(was.startsAt) + l.now * DAY).toISOString(),
                    updatedAt: new Date(Date.parse(was.updatedAt) + 1).toISOString(),
                  },
            );
          }
          const revisionsNow = [...current.values()];
          const pickFrom = <T>(list: readonly T[], n: number) =>
            list.length ? list[n % list.length] : undefined;
          // Held: what earlier answers gave, old revisions or current ones.
          const held = latestById(
            heldPicks
              .map((p) => pickFrom(p.current ? revisionsNow : old, p.pick))
              .filter((d): d is Doc => d !== undefined),
          );
          const reads = windows.map((w) => {
            const window = { from: day(w.from), to: day(Math.min(200, w.from + w.days)) };
            return {
              window,
              // An answered read holds what is in its window now; one yet to answer, an earlier
              // answer (old revisions, anywhere).
              documents: w.answered
                ? within(revisionsNow, window)
                : latestById(
                    w.stale.map((n) => pickFrom(old, n)).filter((d): d is Doc => d !== undefined),
                  ),
              answered: w.answered,
            };
          });
          const next = documentsToHold(held, reads);
          // Settled: given its own answer, it hands it back.
          expect(documentsToHold(next, reads)).toBe(next);
          expect(new Set(next.map((d) => d.id)).size).toBe(next.length);
          const answered = reads.filter((r) => r.answered);
          const inside = (d: Doc, w: { from: string; to: string }) =>
            d.startsAt >= w.from && d.startsAt < w.to;
          const heldById = new Map(held.map((d) => [d.id, d]));
          for (const doc of next) {
            // Never an older revision than the one held.
            const was = heldById.get(doc.id);
            if (was)
              expect(Date.parse(doc.updatedAt)).toBeGreaterThanOrEqual(Date.parse(was.updatedAt));
            // Sound: inside an answered window, only what is there now, as it is now.
            if (answered.some((r) => inside(doc, r.window))) expect(doc).toBe(current.get(doc.id));
            // A new list, or every read answered: nothing from outside all the windows (but a
            // newer revision of what a read yet to answer holds older, which would come back).
            const shadows = reads.some(
              (r) =>
                !r.answered &&
                r.documents.some((d) => d.id === doc.id && d.updatedAt !== doc.updatedAt),
            );
            if ((next !== held || answered.length === reads.length) && !shadows)
              expect(reads.some((r) => inside(doc, r.window))).toBe(true);
          }
          // Complete: whatever an answered read holds is held, as it is now.
          for (const read of answered)
            for (const doc of read.documents) expect(next).toContain(doc);
          // Kept while unknown: a held class time inside a window yet to answer, outside the
          // answered ones and in no read, stays (nothing says it is gone).
          for (const doc of held) {
            const inRead = reads.some((r) => r.documents.some((d) => d.id === doc.id));
            if (
              !inRead &&
              reads.some((r) => !r.answered && inside(doc, r.window)) &&
              !answered.some((r) => inside(doc, r.window))
            )
              expect(next).toContain(doc);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
