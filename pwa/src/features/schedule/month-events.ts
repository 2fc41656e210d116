import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';

/**
 * What the staff calendar reads and draws (issue 16 benchmark: a month under 100 ms from the
 * replica): the replica is read around the shown range so the next one is already in hand, and
 * a busy month draws a few class times a day with one '+N more' that opens the day.
 */
/** Class times drawn per day in the month view; the rest are one '+N more' that opens the day. */
export const MONTH_DAY_EVENTS = 3;
const DAY_MS = 86_400_000;

/** The shown range widened by its own length on each side (what the replica is read for). */
export function paddedWindow(range: { from: string; to: string }): { from: string; to: string } {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  const pad = Math.min(to - from, 42 * DAY_MS);
  return { from: new Date(from - pad).toISOString(), to: new Date(to + pad).toISOString() };
}

type Window = { from: string; to: string };

/**
 * What the calendar reads, as three windows of the replica: the shown range (its own query,
 * so the range on screen arrives by itself — a month's class times, not three months'), and a
 * range's length before and after it (so the next or previous range is already in hand).
 */
export function windowsAround(range: Window): { before: Window; shown: Window; after: Window } {
  const padded = paddedWindow(range);
  return {
    before: { from: padded.from, to: range.from },
    shown: { from: range.from, to: range.to },
    after: { from: range.to, to: padded.to },
  };
}

/**
 * The documents of several reads as one list: each id once, the latest change of it (a read
 * whose window just moved still holds its earlier answer until the new one comes).
 */
export function latestById<D extends { id: string; updatedAt: string }>(
  ...reads: ReadonlyArray<readonly D[]>
): D[] {
  const byId = new Map<string, D>();
  for (const read of reads)
    for (const doc of read) {
      const held = byId.get(doc.id);
      if (!held || Date.parse(doc.updatedAt) > Date.parse(held.updatedAt)) byId.set(doc.id, doc);
    }
  return [...byId.values()];
}

/** Whether two lists hold the same documents at the same changes (in any order). */
export function sameDocuments<D extends { id: string; updatedAt: string }>(
  a: readonly D[],
  b: readonly D[],
): boolean {
  if (a.length !== b.length) return false;
  const stamps = new Map(a.map((doc) => [doc.id, doc.updatedAt]));
  return b.every((doc) => stamps.get(doc.id) === doc.updatedAt);
}

function byDay(occurrences: readonly OccurrenceDoc[], timeZone: string) {
  const days = new Map<string, OccurrenceDoc[]>();
  for (const o of occurrences) {
    const day = dayKeyOf(Date.parse(o.startsAt), timeZone);
    const list = days.get(day);
    if (list) list.push(o);
    else days.set(day, [o]);
  }
  for (const list of days.values()) list.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  return days;
}

/** The first `most` class times of each day, in time order. */
export function fewEachDay(
  occurrences: readonly OccurrenceDoc[],
  timeZone: string,
  most: number,
): OccurrenceDoc[] {
  return [...byDay(occurrences, timeZone).values()].flatMap((list) => list.slice(0, most));
}

/** Each day with more than `most` class times, and how many more. */
export function moreByDay(
  occurrences: readonly OccurrenceDoc[],
  timeZone: string,
  most: number,
): Array<[string, number]> {
  return [...byDay(occurrences, timeZone)].flatMap(([day, list]) =>
    list.length > most ? [[day, list.length - most] as [string, number]] : [],
  );
}
