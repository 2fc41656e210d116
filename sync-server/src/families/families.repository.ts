import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { auditLog, guardianLinks, memberships, users } from '@platform/schema/db';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import type { Db } from '../db/open-database.ts';

/**
 * The people on the other end of a person's links: their guardians or their children, each
 * saying whether the link awaits the child's confirmation. A person who had an account before
 * someone typed their address is shown by the names typed (decision 0035): a child to the
 * guardian until the child confirms; a guardian, on the child's side, always — the guardian
 * never confirms, and their own names are theirs to give. With `customersOf`, only those who
 * are customers of that organisation — staff see a person only through the person's membership
 * of their organisation (decision 0003).
 */
async function listLinked(
  db: Db,
  side: 'guardians' | 'children',
  userId: string,
  customersOf: string | null,
): Promise<FamilyMember[]> {
  const [known, other] =
    side === 'guardians'
      ? [guardianLinks.childUserId, guardianLinks.guardianUserId]
      : [guardianLinks.guardianUserId, guardianLinks.childUserId];
  const awaiting = sql<boolean>`${guardianLinks.confirmedAt} is null`;
  const typedShown =
    side === 'guardians'
      ? sql`${guardianLinks.requestedNameOf} = 'guardian'`
      : sql`${guardianLinks.requestedNameOf} = 'child' and ${awaiting}`;
  const shownName = (column: 'first' | 'last') => {
    const [typed, real] =
      column === 'first'
        ? [guardianLinks.requestedFirstName, users.firstName]
        : [guardianLinks.requestedLastName, users.lastName];
    return sql<string>`case when ${typedShown} then coalesce(${typed}, ${real}) else ${real} end`;
  };
  const firstName = shownName('first');
  const lastName = shownName('last');
  const query = db
    .select({
      id: users.id,
      firstName,
      lastName,
      email: users.email,
      // A child's own account shows its date of birth only once the link is confirmed.
      dateOfBirth:
        side === 'children'
          ? sql<string | null>`case when ${awaiting} then null else ${users.dateOfBirth}::text end`
          : sql<string | null>`null`,
      awaitingConfirmation: awaiting,
    })
    .from(guardianLinks)
    .innerJoin(users, eq(users.id, other));
  const scoped = customersOf
    ? query.innerJoin(
        memberships,
        and(
          eq(memberships.userId, other),
          eq(memberships.orgId, customersOf),
          eq(memberships.kind, 'customer'),
        ),
      )
    : query;
  // Links made together (one transaction) share a time: then by the names shown.
  const rows = await scoped
    .where(eq(known, userId))
    .orderBy(asc(guardianLinks.createdAt), asc(firstName), asc(lastName), asc(users.id));
  // A date of birth is said only when there is one (issue 14: children's ages).
  return rows.map(({ dateOfBirth, ...person }) =>
    dateOfBirth ? { ...person, dateOfBirth } : person,
  );
}

export const listGuardiansOf = (db: Db, childUserId: string, customersOf: string | null) =>
  listLinked(db, 'guardians', childUserId, customersOf);

export const listChildrenOf = (db: Db, guardianUserId: string, customersOf: string | null) =>
  listLinked(db, 'children', guardianUserId, customersOf);

/** One link, with who made it where; undefined when there is none. */
export async function findLink(db: Db, guardianUserId: string, childUserId: string) {
  const [row] = await db
    .select()
    .from(guardianLinks)
    .where(
      and(
        eq(guardianLinks.guardianUserId, guardianUserId),
        eq(guardianLinks.childUserId, childUserId),
      ),
    );
  return row;
}

/** The owner of the child's account confirms the link; false when there was nothing to confirm. */
export async function confirmLink(
  db: Db,
  link: { guardianUserId: string; childUserId: string; confirmedByUserId: string },
): Promise<boolean> {
  const rows = await db
    .update(guardianLinks)
    .set({ confirmedAt: new Date(), confirmedByUserId: link.confirmedByUserId })
    .where(
      and(
        eq(guardianLinks.guardianUserId, link.guardianUserId),
        eq(guardianLinks.childUserId, link.childUserId),
        isNull(guardianLinks.confirmedAt),
      ),
    )
    .returning({ child: guardianLinks.childUserId });
  return rows.length > 0;
}

/** Which of these people are customers of the organisation. */
export async function customersAmong(
  db: Db,
  orgId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Set();
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.kind, 'customer'),
        inArray(memberships.userId, unique),
      ),
    );
  return new Set(rows.map((row) => row.userId));
}

export type FamilyAuditEntry = {
  orgId: string | null;
  actorUserId: string;
  subjectUserId: string;
  action:
    | 'family.add-guardian'
    | 'family.remove-guardian'
    | 'family.create-child'
    | 'family.attach-child'
    | 'family.confirm-guardian';
  detail: Record<string, unknown>;
};

export async function insertFamilyAudit(db: Db, entry: FamilyAuditEntry) {
  await db.insert(auditLog).values(entry);
}
