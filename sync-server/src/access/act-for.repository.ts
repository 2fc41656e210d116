import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { guardianLinks, memberships, users } from '@platform/schema/db';
import { rowsOf, type Db } from '../db/open-database.ts';
import { effectiveLinkExists } from './effective-link.ts';

/** The children a guardian may act for: links that are confirmed. */
export async function childrenActedFor(db: Db, guardianUserId: string): Promise<string[]> {
  const rows = await db
    .select({ id: guardianLinks.childUserId })
    .from(guardianLinks)
    .where(
      and(eq(guardianLinks.guardianUserId, guardianUserId), isNotNull(guardianLinks.confirmedAt)),
    );
  return rows.map((row) => row.id);
}

/** What the decision needs to know about the person acted for, read in one round trip. */
export type SubjectFacts = {
  email: string | null;
  role: 'user' | 'admin';
  claimed: boolean;
  createdByOrgId: string | null;
  /** Staff anywhere: a guardian never switches into such an account. */
  isStaff: boolean;
  /** The actor holds a confirmed guardian link to the subject. */
  actorIsConfirmedGuardian: boolean;
  /** The subject is an (accepted) customer of the actor's organisation. */
  customerOfActorOrg: boolean;
};

export async function readSubjectFacts(
  db: Db,
  actor: { userId: string; orgId: string | null },
  subjectId: string,
): Promise<SubjectFacts | null> {
  const result = await db.execute(sql`
    select u.email, u.role, u.claimed_at is not null as claimed, u.created_by_org_id,
      exists (select 1 from ${memberships} m
        where m.user_id = u.id and m.kind = 'staff') as is_staff,
      ${effectiveLinkExists(sql`${actor.userId}::uuid`, sql`u.id`)} as actor_is_confirmed_guardian,
      exists (select 1 from ${memberships} m
        where m.user_id = u.id and m.kind = 'customer'
          and m.org_id = ${actor.orgId}::uuid) as customer_of_actor_org
    from ${users} u where u.id = ${subjectId}::uuid`);
  const [row] = rowsOf<{
    email: string | null;
    role: 'user' | 'admin';
    claimed: boolean;
    created_by_org_id: string | null;
    is_staff: boolean;
    actor_is_confirmed_guardian: boolean;
    customer_of_actor_org: boolean;
  }>(result);
  if (!row) return null;
  return {
    email: row.email,
    role: row.role,
    claimed: row.claimed,
    createdByOrgId: row.created_by_org_id,
    isStaff: row.is_staff,
    actorIsConfirmedGuardian: row.actor_is_confirmed_guardian,
    customerOfActorOrg: row.customer_of_actor_org,
  };
}

/** The role of a person (the keyboard person of a switched session); undefined when gone. */
export async function readRole(db: Db, userId: string): Promise<'user' | 'admin' | undefined> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role;
}
