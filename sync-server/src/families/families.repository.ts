import { and, asc, eq, inArray, isNull, ne, notExists } from 'drizzle-orm';
import { auditLog, guardianLinks, memberships, users } from '@platform/schema/db';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import type { Db } from '../db/open-database.ts';

const member = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

/**
 * The people on the other end of a person's links: their guardians or their children. With
 * `customersOf`, only those who are customers of that organisation — staff see a person only
 * through the person's membership of their organisation (decision 0003).
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
  const query = db.select(member).from(guardianLinks).innerJoin(users, eq(users.id, other));
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
  return scoped
    .where(eq(known, userId)) // Links made together (one transaction) share a time: then by name.
    .orderBy(
      asc(guardianLinks.createdAt),
      asc(users.firstName),
      asc(users.lastName),
      asc(users.id),
    );
}

export const listGuardiansOf = (db: Db, childUserId: string, customersOf: string | null) =>
  listLinked(db, 'guardians', childUserId, customersOf);

export const listChildrenOf = (db: Db, guardianUserId: string, customersOf: string | null) =>
  listLinked(db, 'children', guardianUserId, customersOf);

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
    | 'family.attach-child';
  detail: Record<string, unknown>;
};

export async function insertFamilyAudit(db: Db, entry: FamilyAuditEntry) {
  await db.insert(auditLog).values(entry);
}

/**
 * An account its family manages: no password or Google sign-in of its own, not a platform
 * admin, not staff anywhere. Only such an account may be put under a guardian by staff — a
 * guardian can switch into their child, so a link over an account that signs in by itself
 * would hand staff (or whoever they name) that person's whole account.
 */
export async function isManagedAccount(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        isNull(users.passwordHash),
        isNull(users.googleSubject),
        ne(users.role, 'admin'),
        notExists(
          db
            .select({ one: memberships.userId })
            .from(memberships)
            .where(and(eq(memberships.userId, userId), eq(memberships.kind, 'staff'))),
        ),
      ),
    );
  return row !== undefined;
}
