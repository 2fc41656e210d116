import { asc, eq } from 'drizzle-orm';
import { memberships, organizations } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export type MembershipSummary = {
  orgId: string;
  label: string;
  kind: 'staff' | 'customer';
};

/** Every membership of a user, oldest first ("the first staff membership" means this order). */
export async function listMemberships(db: Db, userId: string): Promise<MembershipSummary[]> {
  return db
    .select({ orgId: memberships.orgId, label: organizations.label, kind: memberships.kind })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

export async function insertCustomerMembership(db: Db, userId: string, orgId: string) {
  await db.insert(memberships).values({ userId, orgId, kind: 'customer' }).onConflictDoNothing();
}
