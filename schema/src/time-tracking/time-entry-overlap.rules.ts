import type { TimeEntryDoc } from './time-entry.zod.ts';
import { timeEntryOverlapMessage } from './time-tracking.messages.ts';

/** What the overlap rule reads of an entry. */
export type EntrySpan = Pick<TimeEntryDoc, 'id' | 'orgId' | 'userId' | 'startTime' | 'endTime'> & {
  _deleted?: boolean;
};
/** A change to check: the state to store, and the stored one it replaces (null when new). */
export type SpanChange<E extends EntrySpan = EntrySpan> = {
  next: E & { updatedAt: string };
  master: E | null;
};

const live = <E extends EntrySpan>(entry: E | null | undefined): entry is E =>
  !!entry && !entry._deleted;

/**
 * Whether two entries share any instant: [start, end) each, a running entry (no end) open-ended,
 * so one that ends at 12:00 and one that starts at 12:00 do not overlap.
 */
export function entriesOverlap(a: EntrySpan, b: EntrySpan): boolean {
  if (a.orgId !== b.orgId || a.userId !== b.userId) return false;
  const aEnd = a.endTime === null ? Infinity : Date.parse(a.endTime);
  const bEnd = b.endTime === null ? Infinity : Date.parse(b.endTime);
  return Date.parse(a.startTime) < bEnd && Date.parse(b.startTime) < aEnd;
}

/**
 * The rule "no overlapping entries for one person" applied to a batch of changes. `stored` are
 * the person's live entries the batch may touch (as read under the person's lock); entries of
 * the batch replace their stored versions. A change is refused when it makes an overlap that
 * was not there before — so an entry that already overlapped another before this rule existed
 * can still be shortened or clocked out, and deleting is always allowed. When two changes of one
 * batch overlap each other, the later change (by `updatedAt`, then id) carries the refusal.
 */
export function overlapRefusals<E extends EntrySpan>(
  changes: ReadonlyArray<SpanChange<E>>,
  stored: readonly E[],
): Array<{ id: string; message: string }> {
  const changed = new Map(changes.map((change) => [change.next.id, change]));
  const others = stored.filter((entry) => !changed.has(entry.id) && live(entry));
  const refused = new Set<string>();
  const createsOverlap = (a: SpanChange<E>, b: E, bBefore: E | null) =>
    entriesOverlap(a.next, b) &&
    !(live(a.master) && live(bBefore) && entriesOverlap(a.master, bBefore));

  const liveChanges = changes.filter((change) => live(change.next));
  for (const [index, change] of liveChanges.entries()) {
    if (others.some((entry) => createsOverlap(change, entry, entry))) refused.add(change.next.id);
    for (const other of liveChanges.slice(index + 1)) {
      if (!createsOverlap(change, other.next, other.master)) continue;
      refused.add(laterChange(change, other).next.id);
    }
  }
  return [...refused].map((id) => ({ id, message: timeEntryOverlapMessage }));
}

function laterChange<C extends SpanChange>(a: C, b: C): C {
  const byTime = Date.parse(a.next.updatedAt) - Date.parse(b.next.updatedAt);
  if (byTime !== 0) return byTime > 0 ? a : b;
  return a.next.id > b.next.id ? a : b;
}
