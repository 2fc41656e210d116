import { clockTimeRefusal } from '../time-tracking/time-clock.rules.ts';
import type { TimeEntryDoc } from '../time-tracking/time-entry.zod.ts';
import { kioskMessages } from './kiosk.messages.ts';

type Entry = TimeEntryDoc & { _deleted: boolean };

/**
 * What a kiosk may change through replication: only what clock moves make. A new entry (a
 * clock-in — with its breaks and clock-out too when they all happened offline), and on an
 * existing entry new breaks, a break's end and the clock-out. Never a deletion, another start,
 * a finished entry or break made shorter, or a break taken away. A merge of two devices' moves
 * (time-entry.conflict.ts: earliest clock-in, latest clock-out, breaks from both) passes when
 * both sides started from the same entry. A time the kiosk adds may not lie ahead of the
 * server (clock drift aside). Returns why a change is refused, or null.
 */
export function kioskChangeRefusal(master: Entry | null, next: Entry, now: Date): string | null {
  if (next._deleted || master?._deleted) return kioskMessages.clockMovesOnly;
  if (master && !onlyMovesForward(master, next)) return kioskMessages.clockMovesOnly;
  const known = new Set(master ? timesOf(master) : []);
  for (const time of timesOf(next)) {
    if (known.has(time)) continue;
    const refusal = clockTimeRefusal(new Date(time), now);
    if (refusal) return refusal;
  }
  return null;
}

function onlyMovesForward(master: Entry, next: Entry): boolean {
  if (next.startTime !== master.startTime) return false;
  if (master.endTime !== null && (next.endTime === null || laterThan(master.endTime, next.endTime)))
    return false;
  return master.breakIntervals.every((kept) => {
    const same = next.breakIntervals.find((interval) => interval.startTime === kept.startTime);
    if (!same) return false;
    return (
      kept.endTime === null || (same.endTime !== null && !laterThan(kept.endTime, same.endTime))
    );
  });
}

const laterThan = (a: string, b: string) => Date.parse(a) > Date.parse(b);

function timesOf(entry: Entry): string[] {
  const times = [entry.startTime];
  if (entry.endTime) times.push(entry.endTime);
  for (const interval of entry.breakIntervals) {
    times.push(interval.startTime);
    if (interval.endTime) times.push(interval.endTime);
  }
  return times;
}
