import { and, eq } from 'drizzle-orm';
import { memberships } from '@platform/schema/db';
import { timeEntryRuleViolation } from '@platform/schema/time-tracking/time-entry.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { Tx } from '../db/open-database.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor } from '../sync/actor.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import { upsertTimeEntry } from './time-entries.repository.ts';

/**
 * The one write path for time entries: replication pushes and the /api/time-tracking actions
 * both end here, inside the caller's transaction.
 */
export async function writeTimeEntry(tx: Tx, _actor: Actor, next: WireDoc<TimeEntryDoc>, master: WireDoc<TimeEntryDoc> | null) {
  if (master && master.userId !== next.userId) throw new RuleBroken('A time entry cannot be moved to another person.');
  if (!next._deleted) {
    const violation = timeEntryRuleViolation(next);
    if (violation) throw new RuleBroken(violation);
  }
  if (!master) {
    const [staff] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.orgId, next.orgId), eq(memberships.userId, next.userId), eq(memberships.kind, 'staff')));
    if (!staff) throw new RuleBroken('Time entries can only be recorded for staff of this organization.');
  }
  await upsertTimeEntry(tx, next);
}
