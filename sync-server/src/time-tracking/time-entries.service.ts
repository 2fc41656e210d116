import { overlapRefusals } from '@platform/schema/time-tracking/time-entry-overlap.rules';
import { timeEntryRuleViolation } from '@platform/schema/time-tracking/time-entry.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { Tx } from '../db/open-database.ts';
import { membersOf } from '../sync/memberships.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError } from '../sync/collection-definition.ts';
import {
  findOverlapCandidates,
  lockPeopleEntries,
  personEntriesKey,
  upsertTimeEntries,
} from './time-entries.repository.ts';

// The replication registry (sync/collections) reads stored rows as documents through here.
export { timeEntryToDoc } from './time-entries.repository.ts';

export const timeEntryServiceMessages = {
  cannotMove: 'A time entry cannot be moved to another person.',
  notStaff: 'Time entries can only be recorded for staff of this organization.',
} as const;

/**
 * What writes of a time entry serialise on: its person. A push locks it before the entries'
 * ids and reads the masters under it; the clock moves lock it before reading the clock
 * (decision 0045), so a move and a push never act on each other's stale reads.
 */
export const timeEntryWriteGroup = (entry: Pick<TimeEntryDoc, 'orgId' | 'userId'>): string =>
  personEntriesKey(entry.orgId, entry.userId);

/**
 * The one write path for time entries: replication pushes and the /api/time-tracking actions
 * both end here, inside the caller's transaction. Writes all of `changes` or, when any breaks
 * a rule, none, and returns the reasons.
 */
export async function writeTimeEntries(
  tx: Tx,
  _actor: Actor,
  changes: Array<Change<TimeEntryDoc>>,
): Promise<RuleError[]> {
  const errors: RuleError[] = [];
  for (const { next, master } of changes) {
    if (master && master.userId !== next.userId)
      errors.push({ id: next.id, message: timeEntryServiceMessages.cannotMove });
    else if (!next._deleted) {
      const violation = timeEntryRuleViolation(next);
      if (violation) errors.push({ id: next.id, message: violation });
    }
  }
  const newOnes = changes.filter((c) => !c.master);
  if (newOnes.length) {
    const staff = await membersOf(
      tx,
      newOnes[0]?.next.orgId ?? '',
      'staff',
      newOnes.map((c) => c.next.userId),
    );
    for (const { next } of newOnes)
      if (!staff.has(next.userId))
        errors.push({ id: next.id, message: timeEntryServiceMessages.notStaff });
  }
  errors.push(...(await overlapErrors(tx, changes, new Set(errors.map((e) => e.id)))));
  if (errors.length === 0)
    await upsertTimeEntries(
      tx,
      changes.map((c) => c.next),
    );
  return errors;
}

/**
 * No overlapping entries for one person (schema/…/time-entry-overlap.rules.ts). Checked under
 * a lock per person, so two writers — two pushes, or a push and an API call — cannot both
 * read the other's entry as absent and both write. Both callers hold it already; it is taken
 * here again for any other caller. Entries already refused are left out.
 */
async function overlapErrors(
  tx: Tx,
  changes: Array<Change<TimeEntryDoc>>,
  refused: ReadonlySet<string>,
): Promise<RuleError[]> {
  const checked = changes.filter((c) => !refused.has(c.next.id));
  const growing = checked.filter((c) => !c.next._deleted);
  if (growing.length === 0) return [];
  await lockPeopleEntries(
    tx,
    growing.map((c) => c.next),
  );
  const stored = await findOverlapCandidates(
    tx,
    growing.map((c) => c.next),
  );
  return overlapRefusals(checked, stored);
}
