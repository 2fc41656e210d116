import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { normaliseTags } from '@platform/schema/crm/tags.rules';
import {
  crmInvitations,
  customerMetrics,
  customerNotes,
  guardianLinks,
  rosterItems,
  users,
} from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';

export type RosterItemRow = typeof rosterItems.$inferSelect;

/** A live roster item of this organisation, by its id; other organisations' ids find nothing. */
export async function findRosterItem(db: Db, orgId: string, rosterId: string) {
  const [row] = await db
    .select()
    .from(rosterItems)
    .where(
      and(
        eq(rosterItems.orgId, orgId),
        eq(rosterItems.id, rosterId),
        eq(rosterItems.deleted, false),
      ),
    );
  return row;
}

export async function findRosterItemOfUser(db: Db, orgId: string, userId: string) {
  const [row] = await db
    .select()
    .from(rosterItems)
    .where(
      and(
        eq(rosterItems.orgId, orgId),
        eq(rosterItems.userId, userId),
        eq(rosterItems.deleted, false),
      ),
    );
  return row;
}

/**
 * The person's guardians and children who are customers of this organisation too, named as
 * its roster names them: staff see nothing of a family beyond their own customer list.
 */
/** The live roster items of these people in the organisation (one per person). */
export async function rosterItemsOfUsers(db: Db, orgId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(rosterItems)
    .where(
      and(
        eq(rosterItems.orgId, orgId),
        inArray(rosterItems.userId, [...userIds]),
        eq(rosterItems.deleted, false),
      ),
    );
}

export async function familyOnRoster(db: Db, orgId: string, userId: string) {
  const links = await db
    .select()
    .from(guardianLinks)
    .where(
      sql`${guardianLinks.guardianUserId} = ${userId} or ${guardianLinks.childUserId} = ${userId}`,
    );
  const guardianIds = links.filter((l) => l.childUserId === userId).map((l) => l.guardianUserId);
  const childIds = links.filter((l) => l.guardianUserId === userId).map((l) => l.childUserId);
  const ids = [...guardianIds, ...childIds];
  const items =
    ids.length === 0
      ? []
      : await db
          .select({ item: rosterItems, dateOfBirth: users.dateOfBirth })
          .from(rosterItems)
          .innerJoin(users, eq(users.id, rosterItems.userId))
          .where(
            and(
              eq(rosterItems.orgId, orgId),
              inArray(rosterItems.userId, ids),
              eq(rosterItems.deleted, false),
            ),
          )
          .orderBy(asc(rosterItems.lastName), asc(rosterItems.firstName));
  const person = ({ item }: { item: RosterItemRow }) => ({
    id: item.userId,
    firstName: item.firstName,
    lastName: item.lastName,
    email: item.email,
  });
  return {
    guardians: items.filter((i) => guardianIds.includes(i.item.userId)).map(person),
    // Issue 14: staff see a child's age.
    children: items
      .filter((i) => childIds.includes(i.item.userId))
      .map((row) => ({
        ...person(row),
        ...(row.dateOfBirth ? { dateOfBirth: row.dateOfBirth } : {}),
      })),
  };
}

export async function notesOf(db: Db, orgId: string, userId: string) {
  return db
    .select()
    .from(customerNotes)
    .where(
      and(
        eq(customerNotes.orgId, orgId),
        eq(customerNotes.userId, userId),
        eq(customerNotes.deleted, false),
      ),
    )
    .orderBy(desc(customerNotes.createdAt))
    .limit(200);
}

export async function metricsOf(db: Db, orgId: string, userId: string) {
  return db
    .select()
    .from(customerMetrics)
    .where(and(eq(customerMetrics.orgId, orgId), eq(customerMetrics.userId, userId)))
    .orderBy(desc(customerMetrics.measuredOn), desc(customerMetrics.createdAt))
    .limit(200);
}

export async function invitationsOf(db: Db, orgId: string, userId: string) {
  return db
    .select({
      createdAt: crmInvitations.createdAt,
      acceptedAt: crmInvitations.acceptedAt,
      declinedAt: crmInvitations.declinedAt,
    })
    .from(crmInvitations)
    .where(and(eq(crmInvitations.orgId, orgId), eq(crmInvitations.userId, userId)))
    .orderBy(desc(crmInvitations.createdAt))
    .limit(50);
}

/** A note from the REST call: replicated like one pushed from a device, so devices hear of it. */
export async function insertNote(
  db: Db,
  values: Omit<typeof customerNotes.$inferInsert, 'updatedAt'>,
): Promise<typeof customerNotes.$inferSelect> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(customerNotes)
      .values({ ...values, updatedAt: new Date() })
      .returning();
    if (!row) throw new Error('note not inserted');
    await notifyChange(tx, {
      collection: 'customer-notes',
      orgId: row.orgId,
      ownerIds: [row.userId],
    });
    return row;
  });
}

export async function insertMetric(
  db: Db,
  values: typeof customerMetrics.$inferInsert,
): Promise<typeof customerMetrics.$inferSelect> {
  const [row] = await db.insert(customerMetrics).values(values).returning();
  if (!row) throw new Error('metric not inserted');
  return row;
}

/**
 * The organisation's tags in use, for the roster's filter and the tag input's suggestions: one
 * spelling of each (tags compare case-insensitively, tags.rules.ts).
 */
export async function tagsOfOrg(db: Db, orgId: string): Promise<string[]> {
  const rows = await db.execute(
    sql`select distinct unnest(tags) as tag from roster_items where org_id = ${orgId} and deleted = false order by 1 limit 500`,
  );
  const list = Array.isArray(rows) ? rows : ((rows as { rows?: unknown[] }).rows ?? []);
  return normaliseTags((list as Array<{ tag: string }>).map((r) => r.tag));
}
