import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { claims } from '@platform/schema/organizations/claims';
import { auditLog, memberships, rosterItems } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { settledEmailsTo } from '../testing/job-fixtures.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';

/** Test helpers of the families API: calls, and one organisation with two families. */
export function familyCalls(app: FastifyInstance) {
  const post = (url: string, jar: CookieJar | null, payload: object) =>
    app.inject({ method: 'POST', url, headers: jar?.headers() ?? {}, payload });
  return {
    guardians: (jar: CookieJar | null, payload: object) => post('/api/guardians', jar, payload),
    createAccount: (jar: CookieJar | null, payload: object) =>
      post('/api/auth/create-account', jar, payload),
  };
}

/**
 * An organisation with a manager (every claim), a staff member without view-customers, and two
 * customer families (a parent and a child each); plus a second organisation with a customer.
 */
export async function seedFamilies(app: FastifyInstance, db: Db) {
  const org = await insertTestOrg(db, 'Peak Gym');
  const otherOrg = await insertTestOrg(db, 'Other Gym');
  const person = async (
    orgId: string,
    kind: 'staff' | 'customer',
    values: {
      firstName: string;
      lastName: string;
      email?: string | null;
      withPassword?: boolean;
      createdByOrgId?: string;
    },
    staffClaims?: string[],
  ) => {
    const user = await insertTestUser(db, values);
    await addMembership(db, user.id, orgId, kind, staffClaims);
    return user;
  };
  const manager = await person(org.id, 'staff', { firstName: 'Morgan', lastName: 'Manager' });
  const clerk = await person(
    org.id,
    'staff',
    { firstName: 'Cleo', lastName: 'Clerk' },
    claims.filter((claim) => claim !== 'view-customers'),
  );
  const parent = await person(org.id, 'customer', { firstName: 'Pat', lastName: 'Parent' });
  // Casey signs in by herself (a teenager); Ola's account (no email) was made by the
  // organisation's staff for her family, so staff still act for it (decision 0035).
  const child = await person(org.id, 'customer', {
    firstName: 'Casey',
    lastName: 'Parent',
    email: uniqueEmail('casey'),
  });
  await linkChild(db, parent.id, child.id, org.id);
  const otherParent = await person(org.id, 'customer', { firstName: 'Olly', lastName: 'Other' });
  const otherChild = await person(org.id, 'customer', {
    firstName: 'Ola',
    lastName: 'Other',
    email: null,
    withPassword: false,
    createdByOrgId: org.id,
  });
  await linkChild(db, otherParent.id, otherChild.id, org.id);
  const stranger = await person(otherOrg.id, 'customer', {
    firstName: 'Sid',
    lastName: 'Elsewhere',
  });

  const login = async (user: { email: string | null }, profileType: 'use-org' | 'use-customer') =>
    (await logInAs(app, user.email!, { profileType, profileOrgId: org.id })).jar;
  return {
    org,
    otherOrg,
    manager: { ...manager, jar: await login(manager, 'use-org') },
    clerk: { ...clerk, jar: await login(clerk, 'use-org') },
    parent: { ...parent, jar: await login(parent, 'use-customer') },
    child,
    otherParent,
    otherChild,
    stranger,
  };
}

/** A family member as the API lists them; `awaitingConfirmation` false unless said. */
export const member = (
  user: { id: string; firstName: string; lastName: string; email: string | null },
  awaitingConfirmation = false,
) => ({
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  awaitingConfirmation,
});

/**
 * The emails to `address`, newest first, once their delivery jobs have run (the request only
 * queued them). Tests read the links, so the body is given as text ('' once it is gone).
 */
export async function mailsTo(db: Db, address: string) {
  const rows = await settledEmailsTo(db, address);
  return rows.map((row) => ({ ...row, textBody: row.textBody ?? '' }));
}

export async function auditOf(db: Db, subjectUserId: string) {
  return db.select().from(auditLog).where(eq(auditLog.subjectUserId, subjectUserId));
}

/** The person's customer memberships and roster items (their place on customer lists). */
export async function enrolmentOf(db: Db, userId: string) {
  const [member, roster] = await Promise.all([
    db.select().from(memberships).where(eq(memberships.userId, userId)),
    db.select().from(rosterItems).where(eq(rosterItems.userId, userId)),
  ]);
  return {
    customerOf: member.filter((m) => m.kind === 'customer').map((m) => m.orgId),
    rosterOrgs: roster.filter((r) => !r.deleted).map((r) => r.orgId),
  };
}

/** The set-password link's token, read from the email. */
export function tokenIn(text: string): string {
  const token = /\/auth\/reset-password\?token=([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no set-password link in the email');
  return token;
}
