import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emailOutbox } from '@platform/schema/db';
import { roles } from '@platform/schema/team/team.rules';
import type { Db } from '../db/open-database.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';

type Person = { id: string; email: string; jar: CookieJar };

/**
 * Two organisations: A with an owner, a manager (the Manager role: no manage-org-staff), a
 * coach, a customer and one open invitation to an address that has an account (the invitee,
 * signed in); B with an owner of its own. Everyone signed in through the real log-in.
 */
export async function seedTeams(app: FastifyInstance, db: Db) {
  const org = await insertTestOrg(db);
  const otherOrg = await insertTestOrg(db);
  const person = async (
    prefix: string,
    membership: { orgId: string; kind: 'staff' | 'customer'; claims?: readonly string[] } | null,
  ): Promise<Person> => {
    const user = await insertTestUser(db, {
      email: uniqueEmail(prefix),
      firstName: prefix,
      lastName: 'Test',
    });
    if (membership)
      await addMembership(
        db,
        user.id,
        membership.orgId,
        membership.kind,
        membership.claims ? [...membership.claims] : [],
      );
    const profile =
      membership?.kind === 'staff'
        ? { profileType: 'use-org', profileOrgId: membership.orgId }
        : {};
    const { jar } = await logInAs(app, user.email!, profile);
    return { id: user.id, email: user.email!, jar };
  };
  const owner = await person('owner', { orgId: org.id, kind: 'staff', claims: roles.owner.claims });
  const manager = await person('manager', {
    orgId: org.id,
    kind: 'staff',
    claims: roles.manager.claims,
  });
  const coach = await person('coach', { orgId: org.id, kind: 'staff', claims: roles.coach.claims });
  const customer = await person('customer', { orgId: org.id, kind: 'customer' });
  const otherOwner = await person('other-owner', {
    orgId: otherOrg.id,
    kind: 'staff',
    claims: roles.owner.claims,
  });
  const invitee = await person('invitee', null);
  const invited = await app.inject({
    method: 'POST',
    url: '/api/team/invitations',
    headers: owner.jar.headers(),
    payload: { email: invitee.email, claims: roles['front-desk'].claims },
  });
  if (invited.statusCode !== 201) throw new Error(`invitation failed: ${invited.body}`);
  const invitationId = invited.json<{ id: string }>().id;
  return {
    org,
    otherOrg,
    owner,
    manager,
    coach,
    customer,
    otherOwner,
    invitee,
    invitation: { id: invitationId, token: await tokenSentTo(db, invitee.email) },
  };
}
export type Teams = Awaited<ReturnType<typeof seedTeams>>;

/** The token in the newest team invitation emailed to `address` (bodies stay until delivered). */
export async function tokenSentTo(db: Db, address: string): Promise<string> {
  const [mail] = await db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, address.toLowerCase()))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  const token = /\/join-team\?token=([\w-]+)/.exec(mail?.textBody ?? '')?.[1];
  if (!token) throw new Error(`no team invitation link emailed to ${address}`);
  return decodeURIComponent(token);
}
