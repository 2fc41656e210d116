import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, memberships, teamInvitations } from '@platform/schema/db';
import { teamMessages } from '@platform/schema/team/team.messages';
import { roles } from '@platform/schema/team/team.rules';
import type { TeamResponse } from '@platform/schema/team/team.zod';
import { CookieJar } from '../testing/cookie-jar.ts';
import { uniqueEmail } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedTeams, type Teams } from './team.fixtures.ts';

type Actor = 'owner' | 'manager' | 'otherOwner' | 'customer' | 'invitee' | 'anonymous';
type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
type Action = { name: string; call: (w: Teams) => Call };

const actions: Action[] = [
  { name: 'list the team', call: () => ({ method: 'GET', url: '/api/team' }) },
  {
    name: 'invite',
    call: () => ({
      method: 'POST',
      url: '/api/team/invitations',
      payload: { email: uniqueEmail('new'), claims: roles.coach.claims },
    }),
  },
  {
    name: 'resend an invitation',
    call: (w) => ({ method: 'POST', url: `/api/team/invitations/${w.invitation.id}/resend` }),
  },
  {
    name: 'cancel an invitation',
    call: (w) => ({ method: 'DELETE', url: `/api/team/invitations/${w.invitation.id}` }),
  },
  {
    name: "change a member's claims",
    call: (w) => ({
      method: 'PUT',
      url: `/api/team/members/${w.coach.id}`,
      payload: { claims: roles['front-desk'].claims },
    }),
  },
  {
    name: 'remove a member',
    call: (w) => ({ method: 'DELETE', url: `/api/team/members/${w.coach.id}` }),
  },
  {
    name: 'accept the invitation',
    call: (w) => ({
      method: 'POST',
      url: '/api/team-invitations/accept',
      payload: { token: w.invitation.token },
    }),
  },
  {
    name: 'decline the invitation',
    call: (w) => ({
      method: 'POST',
      url: '/api/team-invitations/decline',
      payload: { token: w.invitation.token },
    }),
  },
];

/**
 * Who may do what to organisation A's team, through the real routes: only A's staff with
 * manage-org-staff change it; only the invited address, with the emailed token, answers the
 * invitation. Another organisation's owner finds nothing of A's (404: ids are the session
 * organisation's). 'ok' rows are run last, one fresh world each.
 */
const expected: Record<Actor, Record<string, number | 'ok'>> = {
  owner: {
    'list the team': 'ok',
    invite: 'ok',
    'resend an invitation': 'ok',
    'cancel an invitation': 'ok',
    "change a member's claims": 'ok',
    'remove a member': 'ok',
    'accept the invitation': 403,
    'decline the invitation': 403,
  },
  manager: {
    'list the team': 403,
    invite: 403,
    'resend an invitation': 403,
    'cancel an invitation': 403,
    "change a member's claims": 403,
    'remove a member': 403,
    'accept the invitation': 403,
    'decline the invitation': 403,
  },
  otherOwner: {
    'list the team': 'ok',
    invite: 'ok',
    'resend an invitation': 404,
    'cancel an invitation': 404,
    "change a member's claims": 404,
    'remove a member': 404,
    'accept the invitation': 403,
    'decline the invitation': 403,
  },
  customer: Object.fromEntries(actions.map((a) => [a.name, 403])),
  invitee: {
    'list the team': 403,
    invite: 403,
    'resend an invitation': 403,
    'cancel an invitation': 403,
    "change a member's claims": 403,
    'remove a member': 403,
    'accept the invitation': 'ok',
    'decline the invitation': 'ok',
  },
  anonymous: Object.fromEntries(actions.map((a) => [a.name, 401])),
};

describe.each(testDatabaseKinds)('who may change a team, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const jarOf = (w: Teams, actor: Actor) =>
    actor === 'anonymous' ? new CookieJar() : w[actor].jar;
  const send = (jar: CookieJar, call: Call) =>
    t.app.inject({
      method: call.method,
      url: call.url,
      headers: jar.headers(),
      ...(call.payload ? { payload: call.payload } : {}),
    });
  const teamOfA = async (w: Teams) =>
    (await send(w.owner.jar, { method: 'GET', url: '/api/team' })).json<TeamResponse>();

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('refuses every actor what the matrix refuses, and A stays as it was', async () => {
    const w = await seedTeams(t.app, t.db);
    const before = await teamOfA(w);
    const refusals = (Object.keys(expected) as Actor[]).flatMap((actor) =>
      actions
        .filter((action) => expected[actor][action.name] !== 'ok')
        .map((action) => ({ actor, action, status: expected[actor][action.name] })),
    );
    const answered = [];
    for (const { actor, action } of refusals)
      answered.push({
        actor,
        action: action.name,
        status: (await send(jarOf(w, actor), action.call(w))).statusCode,
      });
    expect(answered).toEqual(
      refusals.map(({ actor, action, status }) => ({ actor, action: action.name, status })),
    );
    expect(await teamOfA(w)).toEqual(before);
  });

  it.each(['owner', 'otherOwner', 'invitee'] as const)(
    'lets the %s do what the matrix allows, each on a fresh world',
    async (actor) => {
      for (const action of actions.filter((a) => expected[actor][a.name] === 'ok')) {
        const w = await seedTeams(t.app, t.db);
        const res = await send(jarOf(w, actor), action.call(w));
        expect({ action: action.name, status: res.statusCode }).toEqual({
          action: action.name,
          status: action.name === 'invite' ? 201 : 200,
        });
      }
    },
  );

  it("shows another organisation's owner only their own team", async () => {
    const w = await seedTeams(t.app, t.db);
    const theirs = (
      await send(w.otherOwner.jar, { method: 'GET', url: '/api/team' })
    ).json<TeamResponse>();
    expect(theirs.members.map((m) => m.userId)).toEqual([w.otherOwner.id]);
    expect(theirs.invitations).toEqual([]);
  });

  it('keeps a member from raising their own claims or touching someone who can do more', async () => {
    const w = await seedTeams(t.app, t.db);
    // The coach may now manage the team, but holds little else.
    const coachTeam = [...roles.coach.claims, 'manage-org-staff'];
    await t.db
      .update(memberships)
      .set({ claims: coachTeam })
      .where(and(eq(memberships.userId, w.coach.id), eq(memberships.orgId, w.org.id)));
    const raise = await send(w.coach.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.coach.id}`,
      payload: { claims: [...coachTeam, 'manage-org-settings'] },
    });
    expect(raise.statusCode).toBe(403);
    expect(raise.json()).toMatchObject({ message: teamMessages.beyondOwnClaims });
    const inviteMore = await send(w.coach.jar, {
      method: 'POST',
      url: '/api/team/invitations',
      payload: { email: uniqueEmail('friend'), claims: roles.owner.claims },
    });
    expect(inviteMore.statusCode).toBe(403);
    for (const call of [
      {
        method: 'PUT' as const,
        url: `/api/team/members/${w.owner.id}`,
        payload: { claims: roles.coach.claims },
      },
      { method: 'DELETE' as const, url: `/api/team/members/${w.owner.id}` },
    ]) {
      const res = await send(w.coach.jar, call);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: teamMessages.outranked });
    }
    // Lowering their own claims is theirs to do.
    const lower = await send(w.coach.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.coach.id}`,
      payload: { claims: ['manage-org-staff', 'view-customers'] },
    });
    expect(lower.statusCode).toBe(200);
  });

  it('never loses the last person who can manage the team (409 with a clear message)', async () => {
    const w = await seedTeams(t.app, t.db);
    const calls = [
      { method: 'DELETE' as const, url: `/api/team/members/${w.owner.id}` },
      {
        method: 'PUT' as const,
        url: `/api/team/members/${w.owner.id}`,
        payload: { claims: roles.manager.claims },
      },
    ];
    for (const call of calls) {
      const res = await send(w.owner.jar, call);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ message: teamMessages.lastManager });
    }
    // With a second owner, the first may step down.
    await send(w.owner.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.manager.id}`,
      payload: { claims: roles.owner.claims },
    });
    const stepDown = await send(w.owner.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.owner.id}`,
      payload: { claims: roles.manager.claims },
    });
    expect(stepDown.statusCode).toBe(200);
  });

  it('lets two owners removing each other at once leave one of them', async () => {
    const w = await seedTeams(t.app, t.db);
    await send(w.owner.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.manager.id}`,
      payload: { claims: roles.owner.claims },
    });
    const [a, b] = await Promise.all([
      send(w.owner.jar, { method: 'DELETE', url: `/api/team/members/${w.manager.id}` }),
      send(w.manager.jar, { method: 'DELETE', url: `/api/team/members/${w.owner.id}` }),
    ]);
    // The loser, waiting on the team's lock, finds itself gone (or no longer signed in).
    const [won, lost] = [a.statusCode, b.statusCode].sort();
    expect(won).toBe(200);
    expect([401, 403, 409]).toContain(lost);
    const managers = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.orgId, w.org.id), eq(memberships.kind, 'staff')));
    expect(managers.filter((m) => m.claims.includes('manage-org-staff'))).toHaveLength(1);
  });

  it('audits every change, naming who did it', async () => {
    const w = await seedTeams(t.app, t.db);
    await send(w.owner.jar, {
      method: 'PUT',
      url: `/api/team/members/${w.coach.id}`,
      payload: { claims: roles['front-desk'].claims },
    });
    await send(w.owner.jar, {
      method: 'POST',
      url: `/api/team/invitations/${w.invitation.id}/resend`,
    });
    await send(w.owner.jar, { method: 'DELETE', url: `/api/team/members/${w.coach.id}` });
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.orgId, w.org.id))
      .orderBy(auditLog.id);
    expect(rows.map((row) => [row.action, row.actorUserId, row.subjectUserId])).toEqual([
      ['team.invite', w.owner.id, null],
      ['team.change-claims', w.owner.id, w.coach.id],
      ['team.invite-resend', w.owner.id, null],
      ['team.remove-member', w.owner.id, w.coach.id],
    ]);
    expect(rows[1]?.detail).toMatchObject({
      before: roles.coach.claims,
      after: roles['front-desk'].claims,
    });
    const [invitation] = await t.db
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.id, w.invitation.id));
    expect(invitation?.acceptedAt).toBeNull();
  });
});
