import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { guardianLinks, memberships, organizations, users } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { CookieJar } from './cookie-jar.ts';

export const TEST_PASSWORD = 'correct-horse-battery';
let passwordHash: Promise<string> | undefined;

/** An address no other test uses, so tests can share one app and database. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}

export async function insertTestUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> & { withPassword?: boolean } = {},
): Promise<typeof users.$inferSelect> {
  const { withPassword = true, ...rest } = values;
  passwordHash ??= hash(TEST_PASSWORD);
  const [row] = await db
    .insert(users)
    .values({
      email: uniqueEmail(),
      firstName: 'Test',
      lastName: 'User',
      passwordHash: withPassword ? await passwordHash : null,
      // An account that signs in by itself was claimed by its owner (decision 0035).
      claimedAt: withPassword ? new Date() : null,
      ...rest,
    })
    .returning();
  if (!row) throw new Error('test user not inserted');
  return row;
}

export async function insertTestOrg(db: Db, label = `Org ${randomUUID().slice(0, 6)}`) {
  const [row] = await db.insert(organizations).values({ label }).returning();
  if (!row) throw new Error('test org not inserted');
  return row;
}

export async function addMembership(
  db: Db,
  userId: string,
  orgId: string,
  kind: 'staff' | 'customer',
  claims: string[] = kind === 'staff' ? [...allClaims] : [],
) {
  await db.insert(memberships).values({ userId, orgId, kind, claims });
}

/** A guardian link as it stands after the child's owner confirmed it (unless `confirmed: false`). */
export async function linkChild(
  db: Db,
  guardianUserId: string,
  childUserId: string,
  orgId: string | null = null,
  { confirmed = true }: { confirmed?: boolean } = {},
) {
  await db.insert(guardianLinks).values({
    guardianUserId,
    childUserId,
    orgId,
    createdByUserId: guardianUserId,
    confirmedAt: confirmed ? new Date() : null,
    confirmedByUserId: confirmed ? childUserId : null,
  });
}

/** Logs in through the real endpoint and returns a jar holding the session cookies. */
export async function logInAs(
  app: FastifyInstance,
  identifier: string,
  extra: Record<string, unknown> = {},
  jar = new CookieJar(),
) {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { identifier, password: TEST_PASSWORD, ...extra },
    // Own address per call: the per-IP limit must not couple unrelated tests.
    remoteAddress: `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  if (response.statusCode !== 200)
    throw new Error(`log-in failed: ${response.statusCode} ${response.body}`);
  return { jar: jar.store(response), response };
}

/**
 * Switch accounts as the sign-in form posts it (spec §6): the session acts for `userId`, in an
 * organisation's staff view when `orgId` is given. Stored in the jar when it answers 303; the
 * answer is returned, so a test may expect a refusal.
 */
export async function switchTo(
  app: FastifyInstance,
  jar: CookieJar,
  userId: string,
  orgId?: string,
) {
  const switched = await app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      impersonate: userId,
      redirectTo: '/dashboard',
      ...(orgId ? { profileType: 'use-org', profileOrgId: orgId } : {}),
    }).toString(),
  });
  if (switched.statusCode === 303) jar.store(switched);
  return switched;
}

/** A guardian's session switches into a child's account, as Switch accounts does (spec §6). */
export async function switchInto(app: FastifyInstance, jar: CookieJar, childUserId: string) {
  const switched = await switchTo(app, jar, childUserId);
  if (switched.statusCode !== 303)
    throw new Error(`switching failed: ${switched.statusCode} ${switched.body}`);
}

/** A new organisation and its owner (every claim), signed in to its staff view. */
export async function newOrgWithOwner(app: FastifyInstance, db: Db) {
  const org = await insertTestOrg(db);
  const owner = await insertTestUser(db);
  await addMembership(db, owner.id, org.id, 'staff', [...allClaims]);
  const { jar } = await logInAs(app, owner.email!, {
    profileType: 'use-org',
    profileOrgId: org.id,
  });
  return { org, owner, jar };
}

/** A staff member of the organisation holding these claims, signed in to its staff view. */
export async function signedInStaff(
  app: FastifyInstance,
  db: Db,
  orgId: string,
  staffClaims: string[],
) {
  const user = await insertTestUser(db);
  await addMembership(db, user.id, orgId, 'staff', staffClaims);
  const { jar } = await logInAs(app, user.email!, { profileType: 'use-org', profileOrgId: orgId });
  return { user, jar };
}
