import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { teamInvitations, users } from '@platform/schema/db';
import type { Claim } from '@platform/schema/organizations/claims';
import type { Db, Tx } from '../db/open-database.ts';

export const TEAM_INVITATION_DAYS = 14;
const DAY_MS = 86_400_000;

export type TeamInvitationRow = typeof teamInvitations.$inferSelect;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const expiryFrom = (now: Date) => new Date(now.getTime() + TEAM_INVITATION_DAYS * DAY_MS);

/** Neither accepted, declined nor cancelled (it may have expired). */
const isOpen = and(
  isNull(teamInvitations.acceptedAt),
  isNull(teamInvitations.declinedAt),
  isNull(teamInvitations.cancelledAt),
);

/** A new invitation; answers it with its token (only the token's hash is kept). */
export async function insertTeamInvitation(
  tx: Tx,
  values: { orgId: string; email: string; claims: Claim[]; invitedBy: string },
  now = new Date(),
): Promise<{ invitation: TeamInvitationRow; token: string }> {
  const token = newToken();
  const [invitation] = await tx
    .insert(teamInvitations)
    .values({ ...values, tokenHash: hashOf(token), sentAt: now, expiresAt: expiryFrom(now) })
    .returning();
  if (!invitation) throw new Error('team invitation insert returned nothing');
  return { invitation, token };
}

/** A new token for an open invitation, and a new expiry: the previous link stops working. */
export async function renewTeamInvitation(
  tx: Tx,
  id: string,
  now = new Date(),
): Promise<{ invitation: TeamInvitationRow; token: string }> {
  const token = newToken();
  const [invitation] = await tx
    .update(teamInvitations)
    .set({ tokenHash: hashOf(token), sentAt: now, expiresAt: expiryFrom(now) })
    .where(and(eq(teamInvitations.id, id), isOpen))
    .returning();
  if (!invitation) throw new Error('the team invitation to renew is not open');
  return { invitation, token };
}

/** The organisation's open invitation to an address (live or expired), locked. */
export async function lockOpenInvitationTo(tx: Tx, orgId: string, email: string) {
  const [row] = await tx
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.orgId, orgId), eq(teamInvitations.email, email), isOpen))
    .for('update');
  return row;
}

/** One of the organisation's open invitations by id, locked; another organisation's is absent. */
export async function lockOpenInvitation(tx: Tx, orgId: string, id: string) {
  const [row] = await tx
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.orgId, orgId), eq(teamInvitations.id, id), isOpen))
    .for('update');
  return row;
}

/** The open invitation behind an emailed token (expired or not), locked when asked. */
export async function findOpenInvitationByToken(
  db: Db | Tx,
  token: string,
  { lock = false }: { lock?: boolean } = {},
) {
  const query = db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.tokenHash, hashOf(token)), isOpen));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function endTeamInvitation(
  tx: Tx,
  id: string,
  how:
    { cancelledAt: Date } | { declinedAt: Date } | { acceptedAt: Date; acceptedByUserId: string },
) {
  await tx.update(teamInvitations).set(how).where(eq(teamInvitations.id, id));
}

/** The organisation's open invitations, oldest first, with who sent each. */
export async function listOpenInvitations(db: Db, orgId: string) {
  return db
    .select({
      invitation: teamInvitations,
      inviterFirstName: users.firstName,
      inviterLastName: users.lastName,
    })
    .from(teamInvitations)
    .leftJoin(users, eq(users.id, teamInvitations.invitedBy))
    .where(and(eq(teamInvitations.orgId, orgId), isOpen))
    .orderBy(asc(teamInvitations.createdAt), asc(teamInvitations.id));
}

export async function inviterNameOf(db: Db | Tx, invitation: TeamInvitationRow) {
  if (!invitation.invitedBy) return null;
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, invitation.invitedBy));
  return row ? `${row.firstName} ${row.lastName}`.trim() : null;
}
