import type { CustomerMetric, CustomerNote, CustomerProfile } from '@platform/schema/crm/crm.zod';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { normaliseTags } from '@platform/schema/crm/tags.rules';
import { and, eq } from 'drizzle-orm';
import { rosterItems } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { NotFound } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { decideActFor, isRefusal } from '../access/act-for.ts';
import { staffPrincipal, type CrmStaff } from './crm.access.ts';
import {
  familyOnRoster,
  findRosterItem,
  findRosterItemOfUser,
  insertMetric,
  insertNote,
  invitationsOf,
  metricsOf,
  notesOf,
  rosterItemsOfUsers,
  type RosterItemRow,
} from './customers.repository.ts';

/** Ids come lower-cased into every lookup: PostgreSQL and JavaScript must name one row. */
const normalId = (id: string) => id.trim().toLowerCase();
const isUuid = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** This organisation's live roster item, or 404 — the same answer for another's id. */
export async function rosterItemOrNotFound(db: Db, staff: CrmStaff, rosterId: string) {
  const id = normalId(rosterId);
  const item = isUuid(id) ? await findRosterItem(db, staff.orgId, id) : undefined;
  if (!item) throw new NotFound(crmMessages.notFound);
  return item;
}

/** How the organisation's roster names these people (for lists of sales, bookings…). */
export async function rosterNamesOf(
  db: Db,
  orgId: string,
  userIds: readonly string[],
): Promise<Map<string, { rosterId: string; name: string }>> {
  const rows = await rosterItemsOfUsers(db, orgId, [...new Set(userIds)]);
  return new Map(
    rows.map((row) => [
      row.userId,
      { rosterId: row.id, name: `${row.firstName} ${row.lastName}`.trim() },
    ]),
  );
}

/** spec §2 CRM redirect: a rosterId or userId of this organisation → its rosterId. */
export async function resolveCustomer(
  db: Db,
  staff: CrmStaff,
  query: { rosterId: string } | { userId: string },
): Promise<{ rosterId: string }> {
  if ('rosterId' in query)
    return { rosterId: (await rosterItemOrNotFound(db, staff, query.rosterId)).id };
  const item = await findRosterItemOfUser(db, staff.orgId, normalId(query.userId));
  if (!item) throw new NotFound(crmMessages.notFound);
  return { rosterId: item.id };
}

export async function customerProfile(
  db: Db,
  staff: CrmStaff,
  rosterId: string,
): Promise<CustomerProfile> {
  const item = await rosterItemOrNotFound(db, staff, rosterId);
  return profileOf(db, staff, item);
}

async function profileOf(db: Db, staff: CrmStaff, item: RosterItemRow): Promise<CustomerProfile> {
  const [family, notes, metrics, invitations, manage] = await Promise.all([
    familyOnRoster(db, staff.orgId, item.userId),
    notesOf(db, staff.orgId, item.userId),
    metricsOf(db, staff.orgId, item.userId),
    invitationsOf(db, staff.orgId, item.userId),
    decideActFor(db, staffPrincipal(staff), item.userId, 'manage-family'),
  ]);
  const noteDocs = notes.map(toNote);
  const metricDocs = metrics.map(toMetric);
  const activity = [
    {
      kind: 'joined' as const,
      at: item.createdAt.toISOString(),
      text: 'Added to the customer list',
    },
    ...invitations.map((i) => ({
      kind: 'invited' as const,
      at: i.createdAt.toISOString(),
      text: i.acceptedAt ? 'Invited (accepted)' : i.declinedAt ? 'Invited (declined)' : 'Invited',
    })),
    ...noteDocs.map((n) => ({
      kind: 'note' as const,
      at: n.createdAt,
      text: `Note by ${n.authorName}`,
    })),
    ...metricDocs.map((m) => ({
      kind: 'metric' as const,
      at: m.createdAt,
      text: `${m.name}: ${m.value} (${m.measuredOn})`,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return {
    rosterId: item.id,
    contact: {
      id: item.userId,
      firstName: item.firstName,
      lastName: item.lastName,
      email: item.email,
      phone: item.phone,
    },
    invitationPending: item.invitationPending,
    familyManagedByStaff: !isRefusal(manage),
    externalPayments: item.externalPayments,
    ...family,
    tags: item.tags,
    notes: noteDocs,
    metrics: metricDocs,
    activity,
  };
}

/** Tags are a field of the replicated roster item: a new change position and an announcement. */
export async function setCustomerTags(db: Db, staff: CrmStaff, rosterId: string, tags: string[]) {
  const item = await rosterItemOrNotFound(db, staff, rosterId);
  const unique = normaliseTags(tags);
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(rosterItems)
      .set({ tags: unique, updatedAt: new Date() })
      .where(and(eq(rosterItems.orgId, staff.orgId), eq(rosterItems.id, item.id)))
      .returning();
    await notifyChange(tx, { collection: 'roster', orgId: staff.orgId, ownerIds: [item.userId] });
    return row!;
  });
  return profileOf(db, staff, updated);
}

export async function addCustomerNote(
  db: Db,
  staff: CrmStaff,
  rosterId: string,
  body: string,
): Promise<CustomerNote> {
  const item = await rosterItemOrNotFound(db, staff, rosterId);
  return toNote(
    await insertNote(db, {
      orgId: staff.orgId,
      userId: item.userId,
      authorId: staff.userId,
      authorName: staff.name,
      body,
    }),
  );
}

export async function addCustomerMetric(
  db: Db,
  staff: CrmStaff,
  rosterId: string,
  metric: { name: string; value: string; measuredOn: string },
): Promise<CustomerMetric> {
  const item = await rosterItemOrNotFound(db, staff, rosterId);
  return toMetric(
    await insertMetric(db, {
      orgId: staff.orgId,
      userId: item.userId,
      authorId: staff.userId,
      authorName: staff.name,
      ...metric,
    }),
  );
}

const toNote = (n: Awaited<ReturnType<typeof notesOf>>[number]): CustomerNote => ({
  id: n.id,
  body: n.body,
  authorId: n.authorId,
  authorName: n.authorName,
  createdAt: n.createdAt.toISOString(),
});

const toMetric = (m: Awaited<ReturnType<typeof metricsOf>>[number]): CustomerMetric => ({
  id: m.id,
  name: m.name,
  value: m.value,
  measuredOn: m.measuredOn,
  authorName: m.authorName,
  createdAt: m.createdAt.toISOString(),
});
