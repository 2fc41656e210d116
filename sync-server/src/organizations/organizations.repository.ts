import { eq, sql } from 'drizzle-orm';
import { auditLog, memberships, organizations } from '@platform/schema/db';
import { claims } from '@platform/schema/organizations/claims';
import { DEFAULT_ORG_TIMEZONE } from '@platform/schema/organizations/organizations.zod';
import type { Db } from '../db/open-database.ts';

export type OrganizationRow = typeof organizations.$inferSelect;

/**
 * A new organisation with its founder as staff holding every claim. Two writes: run it inside
 * the caller's transaction (organisation creation, organisation signup).
 */
export async function insertOrganizationWithOwner(
  db: Db,
  ownerUserId: string,
  input: { label: string; companyLocation?: string | undefined },
): Promise<{ id: string; label: string }> {
  const [org] = await db
    .insert(organizations)
    .values({
      label: input.label,
      platform: 'zipper',
      companyLocation: input.companyLocation || null,
      attributes: { coachingBusinessName: input.label, timezone: DEFAULT_ORG_TIMEZONE },
    })
    .returning({ id: organizations.id, label: organizations.label });
  if (!org) throw new Error('organization insert returned nothing');
  await db
    .insert(memberships)
    .values({ orgId: org.id, userId: ownerUserId, kind: 'staff', claims: [...claims] });
  return org;
}

export async function findOrganization(
  db: Db,
  orgId: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  return row;
}

export async function setOrganizationTimezone(db: Db, orgId: string, timezone: string) {
  await db
    .update(organizations)
    .set({ attributes: sql`${organizations.attributes} || ${JSON.stringify({ timezone })}::jsonb` })
    .where(eq(organizations.id, orgId));
}

/**
 * The organisation's waiver text, or removes it (null: the platform's is used again), and
 * audits who changed it — in one transaction.
 */
export async function saveWaiverText(
  db: Db,
  change: { orgId: string; actorUserId: string; text: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({
        attributes:
          change.text === null
            ? sql`${organizations.attributes} - 'waiverOfLiability'`
            : sql`${organizations.attributes} || ${JSON.stringify({ waiverOfLiability: change.text })}::jsonb`,
      })
      .where(eq(organizations.id, change.orgId));
    await tx.insert(auditLog).values({
      orgId: change.orgId,
      actorUserId: change.actorUserId,
      action: 'waiver-of-liability',
      detail: { reset: change.text === null, length: change.text?.length ?? 0 },
    });
  });
}
