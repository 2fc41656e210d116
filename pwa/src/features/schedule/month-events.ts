import { Temporal } from 'temporal-polyfill';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { revisionHeightOf } from '../../db/revision-height.ts';

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

/** A range of local days, from the first to the day after the last. */
type Days = { start: Temporal.PlainDate; end: Temporal.PlainDate };

/**
 * The days a view shows around a day, as FullCalendar lays them out here (weeks start on
 * Monday, `firstDay={1}`; a month is six whole weeks from the week of its first day), or null
 * for a view this does not step.
 */
function daysShown(view: string, day: Temporal.PlainDate): Days | null {
  if (view === 'dayGridMonth') {
    const first = day.with({ day: 1 });
    const start = first.subtract({ days: first.dayOfWeek - 1 });
    return { start, end: start.add({ days: 42 }) };
  }
  if (view.endsWith('Week')) {
    const start = day.subtract({ days: day.dayOfWeek - 1 });
    return { start, end: start.add({ days: 7 }) };
  }
  if (view.endsWith('Day')) return { start: day, end: day.add({ days: 1 }) };
  return null;
}

/**
 * The ranges FullCalendar shows before and after `range` in the same view (what Previous and
 * Next lead to), in the calendar's time zone — or null when `range` is not the one this
 * computes for its view, and nothing is assumed.
 */
export function neighbourRanges(
  range: Window & { view: string },
  timeZone: string,
): { before: Window; after: Window } | null {
  const instantOf = (day: Temporal.PlainDate) =>
    new Date(day.toZonedDateTime({ timeZone }).epochMilliseconds).toISOString();
  const windowOf = (days: Days): Window => ({
    from: instantOf(days.start),
    to: instantOf(days.end),
  });
  const first = Temporal.Instant.from(range.from).toZonedDateTimeISO(timeZone).toPlainDate();
  // A month's grid may begin in the month before: its second week is always the month's own.
  const day = range.view === 'dayGridMonth' ? first.add({ days: 7 }) : first;
  const shown = daysShown(range.view, day);
  if (!shown) return null;
  const own = windowOf(shown);
  if (own.from !== range.from || own.to !== range.to) return null;
  const step =
    range.view === 'dayGridMonth'
      ? { months: 1 }
      : range.view.endsWith('Week')
        ? { weeks: 1 }
        : { days: 1 };
  return {
    before: windowOf(daysShown(range.view, day.subtract(step))!),
    after: windowOf(daysShown(range.view, day.add(step))!),
  };
}

/**
 * What the calendar reads, as three windows of the replica: the shown range (its own query,
 * so the range on screen arrives by itself — a month's class times, not three months'), and the
 * ranges before and after it. Those are exactly what Previous and Next will show when this
 * knows the view (`neighbourRanges`): the next shown range is then a read already made, which
 * the replica answers from memory. Otherwise a range's length either side.
 */
export function windowsAround(
  range: Window & { view?: string },
  timeZone = 'UTC',
): { before: Window; shown: Window; after: Window } {
  const shown = { from: range.from, to: range.to };
  let neighbours: { before: Window; after: Window } | null = null;
  try {
    if (range.view) neighbours = neighbourRanges({ ...range, view: range.view }, timeZone);
  } catch {
    // A zone Temporal does not know: the calendar still reads around what it shows.
  }
  if (neighbours) return { before: neighbours.before, shown, after: neighbours.after };
  const padded = paddedWindow(range);
  return {
    before: { from: padded.from, to: range.from },
    shown,
    after: { from: range.to, to: padded.to },
  };
}

/**
 * Whether `doc` is a later change than `held` (of the same document): by its time, and between
 * two changes stamped in the same millisecond (a class time's booked count moved twice at
 * once) by their revision on this device.
 */
function isLater(doc: { updatedAt: string }, held: { updatedAt: string }): boolean {
  const [at, heldAt] = [Date.parse(doc.updatedAt), Date.parse(held.updatedAt)];
  if (at !== heldAt) return at > heldAt;
  return (revisionHeightOf(doc) ?? 0) > (revisionHeightOf(held) ?? 0);
}

/** One change of a document: its time and, when read from the replica, its revision here. */
const changeOf = (doc: { updatedAt: string }) => `${doc.updatedAt}#${revisionHeightOf(doc) ?? ''}`;

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
      if (!held || isLater(doc, held)) byId.set(doc.id, doc);
    }
  return [...byId.values()];
}

/** Whether two lists hold the same documents at the same changes (in any order). */
export function sameDocuments<D extends { id: string; updatedAt: string }>(
  a: readonly D[],
  b: readonly D[],
): boolean {
  if (a.length !== b.length) return false;
  const changes = new Map(a.map((doc) => [doc.id, changeOf(doc)]));
  return b.every((doc) => changes.get(doc.id) === changeOf(doc));
}

/** One of the calendar's reads: its window, its latest answer, and whether that answer is for this window. */
export type WindowRead<D> = { window: Window; documents: readonly D[]; answered: boolean };

/**
 * The class times the calendar holds once a read answers — `held` itself (the same array) when
 * there is nothing new to draw, so FullCalendar, which parses every event again for a new list,
 * is handed a new one about once a move instead of once for each of the three reads:
 *
 * - A read that has answered for its window is the truth inside it: what no answer holds there
 *   is gone (deleted, or moved away), whoever still holds it.
 * - What is held inside a window whose read has not answered yet — or outside every window (the
 *   month just left) — is kept until there is something new to draw: it is drawn only if it is in
 *   the visible range, and a read about to answer would hand most of it back.
 * - When there is something new (a window's first answer, a changed class time), or once every
 *   read has answered, what lies outside every window is dropped, so the list does not grow with
 *   each move nor keep a month's class times in a week view.
 */
export function documentsToHold<D extends { id: string; updatedAt: string; startsAt: string }>(
  held: readonly D[],
  reads: ReadonlyArray<WindowRead<D>>,
): readonly D[] {
  const inside = (doc: D, window: Window) =>
    doc.startsAt >= window.from && doc.startsAt < window.to;
  const answered = reads.filter((read) => read.answered);
  // What the answered reads hold is the truth inside their windows, at its current revision.
  const truth = latestById(...answered.map((read) => read.documents));
  const known = new Set(truth.map((doc) => doc.id));
  // Everything else held or read, at its latest revision — unless it lies inside an answered
  // window that no longer holds it: deleted, or moved away (also when a read that has not
  // answered since its window moved still holds it).
  const others = latestById(
    held,
    ...reads.filter((read) => !read.answered).map((read) => read.documents),
  ).filter((doc) => !known.has(doc.id) && !answered.some((read) => inside(doc, read.window)));
  const candidate = [...others, ...truth];
  // While a read is under way, nothing new means nothing to draw; once all have answered, what
  // is still held outside every window goes (after a month, a week view would otherwise be handed
  // three months of class times until one of them changed).
  if (reads.some((read) => !read.answered) && sameDocuments(held, candidate)) return held;
  // A newer revision outside every window stays while a read yet to answer holds an older one of
  // it: dropped, it would let that older one back in on the next step.
  const latest = new Map(candidate.map((doc) => [doc.id, changeOf(doc)]));
  const shadowing = new Set(
    reads
      .filter((read) => !read.answered)
      .flatMap((read) => read.documents)
      .filter((doc) => latest.has(doc.id) && latest.get(doc.id) !== changeOf(doc))
      .map((doc) => doc.id),
  );
  const windowed = candidate.filter(
    (doc) => shadowing.has(doc.id) || reads.some((read) => inside(doc, read.window)),
  );
  return sameDocuments(held, windowed) ? held : windowed;
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

/**
 * A busy month as drawn: the first `most` class times of each organisation day, in time order,
 * and each day with more than that, with how many more — from one pass over the class times.
 */
export function monthDays(
  occurrences: readonly OccurrenceDoc[],
  timeZone: string,
  most: number,
): { drawn: OccurrenceDoc[]; more: Array<[day: string, more: number]> } {
  const drawn: OccurrenceDoc[] = [];
  const more: Array<[string, number]> = [];
  for (const [day, list] of byDay(occurrences, timeZone)) {
    drawn.push(...list.slice(0, most));
    if (list.length > most) more.push([day, list.length - most]);
  }
  return { drawn, more };
}
