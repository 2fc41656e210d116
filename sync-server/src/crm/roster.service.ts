import { isDeepStrictEqual } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { isStoredPhone } from '@platform/schema/crm/phone.rules';
import { normaliseTags } from '@platform/schema/crm/tags.rules';
import { rosterItems } from '@platform/schema/db';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError } from '../sync/collection-definition.ts';
import { insertCustomerMembership } from '../auth/accounts.service.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { upsertRosterItems } from './roster.repository.ts';

// The replication registry (sync/collections) reads stored rows as documents through here.
export { rosterItemToDoc } from './roster.repository.ts';

export const rosterMessages = {
  addThroughInvite: 'Customers are added with Add customer, not created offline.',
  athleteFixed: "A customer's name and email are changed on their profile.",
} as const;

/**
 * The one write path for roster items reached by replication: front-desk edits of phone and
 * tags, and removal. People are added through the CRM (issue 7), which owns their account.
 */
export async function writeRosterItems(
  tx: Tx,
  _actor: Actor,
  changes: Array<Change<RosterItemDoc>>,
): Promise<RuleError[]> {
  const errors: RuleError[] = [];
  for (const { next, master } of changes) {
    if (!master) errors.push({ id: next.id, message: rosterMessages.addThroughInvite });
    else if (!isDeepStrictEqual(next.athlete, master.athlete))
      errors.push({ id: next.id, message: rosterMessages.athleteFixed });
    // Issue 14: a number a device changed is stored in E.164, checked as the CRM checks it.
    else if (next.phone !== master.phone && next.phone !== null && !isStoredPhone(next.phone))
      errors.push({ id: next.id, message: crmMessages.invalidPhone });
  }
  // Tags are case-insensitive: a device that sent 'vip' and 'VIP' gets one back.
  const docs = changes.map(({ next }) => ({ ...next, tags: normaliseTags(next.tags) }));
  if (errors.length === 0) await upsertRosterItems(tx, docs);
  return errors;
}

export type EnrolledPerson = {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
};

/**
 * Makes a person a customer of an organisation: a customer membership and a roster item, so
 * staff see them in the CRM and the person's devices replicate it. Idempotent (a removed item
 * comes back); announces the change. Run it inside the caller's transaction.
 */
export async function enrolCustomer(tx: Tx, orgId: string, person: EnrolledPerson): Promise<void> {
  await insertCustomerMembership(tx, person.id, orgId);
  const now = new Date();
  await tx
    .insert(rosterItems)
    .values({
      orgId,
      userId: person.id,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [rosterItems.orgId, rosterItems.userId],
      set: { deleted: false, updatedAt: now },
    });
  await notifyChange(tx, { collection: 'roster', orgId, ownerIds: [person.id] });
}

/**
 * Gives these people's roster items a new change position. A family link that appears makes a
 * child's item visible to a guardian's device, but the item's position is older than that
 * device's checkpoint; re-stamping it is what lets the next pull hand it out.
 */
export async function restampRosterItemsOf(
  tx: Tx,
  userIds: readonly string[],
  /** Also tell these people's live streams (the guardian who can now see the items). */
  alsoTell: readonly string[] = [],
): Promise<void> {
  if (userIds.length === 0) return;
  const rows = await tx
    .update(rosterItems)
    .set({ updatedAt: new Date() })
    .where(and(inArray(rosterItems.userId, [...userIds]), eq(rosterItems.deleted, false)))
    .returning({ orgId: rosterItems.orgId, userId: rosterItems.userId });
  const byOrg = new Map<string, string[]>();
  for (const row of rows) byOrg.set(row.orgId, [...(byOrg.get(row.orgId) ?? []), row.userId]);
  for (const [orgId, ownerIds] of byOrg)
    await notifyChange(tx, { collection: 'roster', orgId, ownerIds: [...ownerIds, ...alsoTell] });
}

/**
 * A person renamed themselves (settings, or claiming an invitation): their roster items in every
 * organisation they belong to take the new name in the same transaction, with a new change
 * position, and each organisation's streams hear of it — staff's CRM and the family's devices
 * show the new name. An item still `invitation_pending` keeps the names staff typed: an
 * organisation learns the person's own names only once they accept it (decision 0035). The update
 * row-locks the items and a push reads its masters for update, so the two take turns: a push
 * after it sees the new name (its device gets a conflict), and no push ever writes a name.
 */
export async function renameRosterItemsOf(
  tx: Tx,
  userId: string,
  name: { firstName: string; lastName: string },
): Promise<void> {
  const rows = await tx
    .update(rosterItems)
    .set({ firstName: name.firstName, lastName: name.lastName, updatedAt: new Date() })
    .where(and(eq(rosterItems.userId, userId), eq(rosterItems.invitationPending, false)))
    .returning({ orgId: rosterItems.orgId });
  for (const orgId of new Set(rows.map((row) => row.orgId)))
    await notifyChange(tx, { collection: 'roster', orgId, ownerIds: [userId] });
}
