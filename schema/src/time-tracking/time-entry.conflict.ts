import { earlierTime, lastWriterWins, laterTime, type Replicated } from '../sync/conflict.rules.ts';
import { timeEntryRuleViolation } from './time-entry.rules.ts';
import type { TimeEntryDoc } from './time-entry.zod.ts';

type Entry = Replicated<TimeEntryDoc>;

/**
 * Two devices changed one time entry while apart (a kiosk and a phone, say). The merge keeps
 * the earliest clock-in, the latest clock-out (a finished entry beats a running one), and every
 * break either recorded. If the merge would break an entry rule, or either side deleted the
 * entry, the later change wins whole. Never produces an impossible entry.
 */
export function mergeTimeEntries(master: Entry, local: Entry): Entry {
  if (master._deleted || local._deleted) return lastWriterWins(master, local);
  const endTime =
    master.endTime && local.endTime
      ? laterTime(master.endTime, local.endTime)
      : (master.endTime ?? local.endTime);
  const breaks = new Map<string, Entry['breakIntervals'][number]>();
  for (const interval of [...master.breakIntervals, ...local.breakIntervals]) {
    const known = breaks.get(interval.startTime);
    // The same break seen by both: a finished one beats a running one, the later end wins.
    if (
      !known ||
      (interval.endTime &&
        (!known.endTime || Date.parse(interval.endTime) > Date.parse(known.endTime)))
    ) {
      breaks.set(interval.startTime, interval);
    }
  }
  const merged: Entry = {
    ...master,
    startTime: earlierTime(master.startTime, local.startTime),
    endTime,
    breakIntervals: [...breaks.values()].sort(
      (a, b) => Date.parse(a.startTime) - Date.parse(b.startTime),
    ),
    updatedAt: laterTime(master.updatedAt, local.updatedAt),
  };
  return timeEntryRuleViolation(merged) ? lastWriterWins(master, local) : merged;
}
