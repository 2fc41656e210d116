import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { crmInvitations } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';

export const INVITATION_DAYS = 14;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new invitation for a password-less account; answers the token (only its hash is kept). */
export async function insertInvitation(
  tx: Tx,
  values: { orgId: string; userId: string; invitedBy: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(crmInvitations).values({
    ...values,
    tokenHash: hashOf(token),
    expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000),
  });
  return token;
}

/** The live (unexpired, unused) invitation behind a token, if any. */
export async function findLiveInvitation(db: Db | Tx, token: string) {
  const [row] = await db
    .select()
    .from(crmInvitations)
    .where(
      and(
        eq(crmInvitations.tokenHash, hashOf(token)),
        isNull(crmInvitations.acceptedAt),
        gt(crmInvitations.expiresAt, new Date()),
      ),
    );
  return row;
}

/** Uses up every invitation of the account: one claim, whichever link was followed. */
export async function markInvitationsAccepted(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(crmInvitations)
    .set({ acceptedAt: new Date() })
    .where(and(eq(crmInvitations.userId, userId), isNull(crmInvitations.acceptedAt)));
}

/** Ends the person's open invitations from this organisation (a resend's new link replaces them). */
export async function endOpenInvitations(
  tx: Tx,
  values: { orgId: string; userId: string },
): Promise<void> {
  await tx
    .update(crmInvitations)
    .set({ expiresAt: new Date() })
    .where(
      and(
        eq(crmInvitations.orgId, values.orgId),
        eq(crmInvitations.userId, values.userId),
        isNull(crmInvitations.acceptedAt),
        gt(crmInvitations.expiresAt, new Date()),
      ),
    );
}
