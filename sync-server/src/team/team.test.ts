import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, teamInvitations } from '@platform/schema/db';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { teamMessages } from '@platform/schema/team/team.messages';
import { roles } from '@platform/schema/team/team.rules';
import type {
  JoinedTeam,
  PendingTeamInvitation,
  TeamInvitationPreview,
  TeamResponse,
} from '@platform/schema/team/team.zod';
import { uniqueEmail } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { drainJobs, waitForEmail } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedTeams, tokenSentTo, type Teams } from './team.fixtures.ts';
import { teamInvitationLimits } from './team.limits.ts';

describe.each(testDatabaseKinds)('the team and its invitations on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let w: Teams;
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    jar: CookieJar,
    payload?: object,
  ) => t.app.inject({ method, url, headers: jar.headers(), ...(payload ? { payload } : {}) });
  const team = async (jar = w.owner.jar) =>
    (await call('GET', '/api/team', jar)).json<TeamResponse>();
  const invite = (email: string, claims: readonly string[] = roles['front-desk'].claims) =>
    call('POST', '/api/team/invitations', w.owner.jar, { email, claims });
  const preview = (token: string) =>
    call('POST', '/api/team-invitations/preview', new CookieJar(), { token });
  const accept = (jar: CookieJar, token: string) =>
    call('POST', '/api/team-invitations/accept', jar, { token });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists the members with their role and kiosk PIN status, and the invitation pending', async () => {
    w = await seedTeams(t.app, t.db);
    expect((await call('PUT', '/api/kiosk/pin', w.coach.jar, { pin: '4821' })).statusCode).toBe(
      200,
    );
    const { members, invitations } = await team();
    expect(members.map((m) => [m.userId, m.role, m.kioskPinSet, m.isYou])).toEqual([
      [w.owner.id, 'owner', false, true],
      [w.manager.id, 'manager', false, false],
      [w.coach.id, 'coach', true, false],
    ]);
    expect(invitations).toEqual([
      expect.objectContaining({
        id: w.invitation.id,
        email: w.invitee.email,
        role: 'front-desk',
        invitedBy: 'owner Test',
        expired: false,
      }),
    ]);
  });

  it('emails a link through the job queue; the link opens the invitation, and nothing else does', async () => {
    w = await seedTeams(t.app, t.db);
    await drainJobs(t.app);
    const mail = await waitForEmail(t.db, w.invitee.email);
    expect(mail.subject).toBe(`Join the team of ${w.org.label}`);
    expect(mail.textBody).toContain(
      `owner Test invited you to join the team of ${w.org.label} as Front desk.`,
    );
    const seen = await preview(w.invitation.token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json<TeamInvitationPreview>()).toEqual({
      orgId: w.org.id,
      orgLabel: w.org.label,
      email: w.invitee.email,
      claims: roles['front-desk'].claims,
      role: 'front-desk',
      invitedBy: 'owner Test',
    });
    // Only the token's hash is kept.
    const [row] = await t.db
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.id, w.invitation.id));
    expect(row?.tokenHash).not.toContain(w.invitation.token);
    const madeUp = await accept(w.invitee.jar, 'x'.repeat(43));
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json()).toMatchObject({ message: teamMessages.invitationInvalid });
    // The invited address signed in is not enough: team invitations are not among its requests.
    const requests = await call('GET', '/api/invitations', w.invitee.jar);
    expect(requests.json()).toEqual([]);
  });

  it('joins with the token: staff with the invited claims, in the organisation view, once', async () => {
    w = await seedTeams(t.app, t.db);
    const res = await accept(w.invitee.jar, w.invitation.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<JoinedTeam>()).toEqual({
      orgId: w.org.id,
      orgLabel: w.org.label,
      redirectTo: '/dashboard',
    });
    const jar = new CookieJar().store(res);
    const me = (await call('GET', '/api/me', jar)).json<CurrentUser>();
    expect(me).toMatchObject({ view: 'org', org: { id: w.org.id } });
    expect([...me.claims].sort()).toEqual([...roles['front-desk'].claims].sort());
    // The session the link was opened in ended; the new one goes on.
    expect((await call('GET', '/api/me', w.invitee.jar)).statusCode).toBe(401);
    const again = await accept(jar, w.invitation.token);
    expect(again.statusCode).toBe(404);
    const { members, invitations } = await team();
    expect(members.map((m) => m.userId)).toContain(w.invitee.id);
    expect(invitations).toEqual([]);
  });

  it('tells someone signed in with another account that the invitation is not theirs', async () => {
    w = await seedTeams(t.app, t.db);
    const res = await accept(w.coach.jar, w.invitation.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: teamMessages.otherAccount(w.invitee.email, w.coach.email),
    });
  });

  it('declines: the invitation ends and leaves the pending list', async () => {
    w = await seedTeams(t.app, t.db);
    expect(
      (
        await call('POST', '/api/team-invitations/decline', w.invitee.jar, {
          token: w.invitation.token,
        })
      ).statusCode,
    ).toBe(200);
    expect((await preview(w.invitation.token)).statusCode).toBe(404);
    expect((await team()).invitations).toEqual([]);
  });

  it('resends with a new token (the old link stops working) and cancels', async () => {
    w = await seedTeams(t.app, t.db);
    const resent = await call(
      'POST',
      `/api/team/invitations/${w.invitation.id}/resend`,
      w.owner.jar,
    );
    expect(resent.statusCode).toBe(200);
    const token = await tokenSentTo(t.db, w.invitee.email);
    expect(token).not.toBe(w.invitation.token);
    expect((await preview(w.invitation.token)).statusCode).toBe(404);
    expect((await preview(token)).statusCode).toBe(200);
    expect(
      (await call('DELETE', `/api/team/invitations/${w.invitation.id}`, w.owner.jar)).statusCode,
    ).toBe(200);
    expect((await preview(token)).statusCode).toBe(404);
    expect((await team()).invitations).toEqual([]);
  });

  it('says when an address is on the team or invited already, and replaces an expired invitation', async () => {
    w = await seedTeams(t.app, t.db);
    const member = await invite(w.coach.email.toUpperCase());
    expect(member.statusCode).toBe(409);
    expect(member.json()).toMatchObject({ message: teamMessages.alreadyMember });
    const twice = await invite(w.invitee.email);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: teamMessages.alreadyInvited });
    await t.db
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.id, w.invitation.id));
    expect((await preview(w.invitation.token)).statusCode).toBe(404);
    expect((await team()).invitations).toEqual([expect.objectContaining({ expired: true })]);
    const fresh = await invite(w.invitee.email, roles.coach.claims);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json<PendingTeamInvitation>()).toMatchObject({ role: 'coach', expired: false });
    expect((await team()).invitations.map((i) => i.id)).toEqual([
      fresh.json<PendingTeamInvitation>().id,
    ]);
  });

  it('refuses an invitation without claims, with the message the form shows', async () => {
    w = await seedTeams(t.app, t.db);
    const res = await invite(uniqueEmail('none'), []);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'claims', message: teamMessages.noClaims }],
    });
  });

  it('ends the organisation sessions of a member taken off the team', async () => {
    w = await seedTeams(t.app, t.db);
    expect((await call('DELETE', `/api/team/members/${w.coach.id}`, w.owner.jar)).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/me', w.coach.jar)).statusCode).toBe(401);
    const rows = await t.db.select().from(memberships).where(eq(memberships.userId, w.coach.id));
    expect(rows).toEqual([]);
  });

  it(`limits invitation emails: ${teamInvitationLimits.perManager.limit} an hour per manager, then 429`, async () => {
    w = await seedTeams(t.app, t.db);
    // The seed sent one already.
    for (let i = 1; i < teamInvitationLimits.perManager.limit; i++)
      expect((await invite(uniqueEmail('staff'))).statusCode).toBe(201);
    const refused = await invite(uniqueEmail('staff'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const resend = await call(
      'POST',
      `/api/team/invitations/${w.invitation.id}/resend`,
      w.owner.jar,
    );
    expect(resend.statusCode).toBe(429);
  });
});
