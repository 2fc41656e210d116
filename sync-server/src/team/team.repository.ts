import { and, asc, eq, sql } from 'drizzle-orm';
import { auditLog, kioskPins, memberships, users } from '@platform/schema/db';
import type { Claim } from '@platform/schema/organizations/claims';
import type { Db, Tx } from '../db/open-database.ts';

const isStaffOf = (orgId: string) =>
  and(eq(memberships.orgId, orgId), eq(memberships.kind, 'staff'));

/**
 * The team's claims, every staff row locked until the transaction ends: two changes that
 * could each leave the team without a manager (two owners removing each other) take turns,
 * and the second sees the first.
 */
export async function lockTeam(tx: Tx, orgId: string) {
  return tx
    .select({ userId: memberships.userId, claims: memberships.claims })
    .from(memberships)
    .where(isStaffOf(orgId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id))
    .for('update');
}

/** The members, oldest first, with whether each has a kiosk PIN (never the PIN). */
export async function listMembers(db: Db, orgId: string) {
  return db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      claims: memberships.claims,
      kioskPinSet: sql<boolean>`${kioskPins.userId} is not null`,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(kioskPins, eq(kioskPins.userId, memberships.userId))
    .where(isStaffOf(orgId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

export async function isStaffByEmail(tx: Tx, orgId: string, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(isStaffOf(orgId), eq(users.email, email)));
  return row !== undefined;
}

export async function setMemberClaims(tx: Tx, orgId: string, userId: string, claims: Claim[]) {
  await tx
    .update(memberships)
    .set({ claims })
    .where(and(isStaffOf(orgId), eq(memberships.userId, userId)));
}

export async function deleteStaffMembership(tx: Tx, orgId: string, userId: string) {
  await tx.delete(memberships).where(and(isStaffOf(orgId), eq(memberships.userId, userId)));
}

/** Joining: a staff membership with these claims (one who is staff already keeps theirs). */
export async function insertStaffMembership(
  tx: Tx,
  orgId: string,
  userId: string,
  claims: Claim[],
) {
  await tx
    .insert(memberships)
    .values({ orgId, userId, kind: 'staff', claims })
    .onConflictDoNothing();
}

export type TeamAuditEntry = {
  orgId: string;
  actorUserId: string;
  subjectUserId: string | null;
  action:
    | 'team.invite'
    | 'team.invite-resend'
    | 'team.invite-cancel'
    | 'team.change-claims'
    | 'team.remove-member'
    | 'team.join'
    | 'team.decline';
  detail: Record<string, unknown>;
};

export async function insertTeamAudit(tx: Tx, entry: TeamAuditEntry) {
  await tx.insert(auditLog).values(entry);
}
