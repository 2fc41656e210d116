import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyMessages } from '@platform/schema/families/families.messages';
import { claims } from '@platform/schema/organizations/claims';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { childrenActedFor } from './act-for.repository.ts';
import {
  actForActions,
  decideActFor,
  isRefusal,
  type ActForAction,
  type Principal,
} from './act-for.ts';

/**
 * Who may act for whom (decision 0035), as a matrix: every kind of asker × every kind of
 * person × every action, through the decision point and through the real endpoints each action
 * is reached by. A cell that changes is a change of the security model — on purpose or not.
 */
type Asker =
  | 'self'
  | 'guardian-confirmed'
  | 'guardian-unconfirmed'
  | 'staff-creating-org'
  | 'staff-other-org'
  | 'staff-without-claim'
  | 'stranger'
  | 'admin';
type Subject = 'claimed' | 'unclaimed-made-by-org' | 'child-without-email';
/** What the endpoint answers: 200 (read / manage), 303 (switched), or the refusal. */
type Outcome = 200 | 303 | 403 | 404;

const read: ActForAction = 'read-family';
const manage: ActForAction = 'manage-family';

/**
 * [asker, subject] → outcome per action, in the order read-family, manage-family, switch,
 * replicate (for replicate: 200 = the person's documents reach the asker's device).
 */
const matrix: Array<[Asker, Subject, [Outcome, Outcome, Outcome, Outcome]]> = [
  ['self', 'claimed', [200, 200, 303, 200]],
  ['guardian-confirmed', 'claimed', [200, 200, 303, 200]],
  ['guardian-confirmed', 'child-without-email', [200, 200, 303, 200]],
  ['guardian-unconfirmed', 'claimed', [404, 404, 403, 404]],
  ['guardian-unconfirmed', 'unclaimed-made-by-org', [404, 404, 403, 404]],
  // Staff of the organisation that made an account act for it until its owner claims it; they
  // read the family of any of their customers; they never switch and never replicate a person.
  ['staff-creating-org', 'unclaimed-made-by-org', [200, 200, 403, 403]],
  ['staff-creating-org', 'claimed', [200, 403, 403, 403]],
  ['staff-creating-org', 'child-without-email', [200, 403, 403, 403]],
  // Another organisation: the claimed person is its customer too; the unclaimed one is not.
  ['staff-other-org', 'claimed', [200, 403, 403, 403]],
  ['staff-other-org', 'unclaimed-made-by-org', [404, 404, 403, 403]],
  ['staff-without-claim', 'unclaimed-made-by-org', [403, 403, 403, 403]],
  ['staff-without-claim', 'claimed', [403, 403, 403, 403]],
  ['stranger', 'claimed', [404, 404, 403, 404]],
  ['stranger', 'child-without-email', [404, 404, 403, 404]],
  ['admin', 'claimed', [404, 404, 303, 404]],
];

describe.each(testDatabaseKinds)('who may act for whom, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let people: Awaited<ReturnType<typeof seed>>;

  async function seed() {
    const orgA = await insertTestOrg(t.db, 'Org A');
    const orgB = await insertTestOrg(t.db, 'Org B');
    const customerOf = async (userId: string, ...orgIds: string[]) => {
      for (const orgId of orgIds) await addMembership(t.db, userId, orgId, 'customer');
    };
    const claimed = await insertTestUser(t.db, {
      firstName: 'Cla',
      lastName: 'Imed',
      createdByOrgId: orgA.id,
    });
    await customerOf(claimed.id, orgA.id, orgB.id);
    const unclaimed = await insertTestUser(t.db, {
      firstName: 'Un',
      lastName: 'Claimed',
      withPassword: false,
      createdByOrgId: orgA.id,
    });
    await customerOf(unclaimed.id, orgA.id);
    const guardian = await insertTestUser(t.db, { firstName: 'Gia', lastName: 'Confirmed' });
    const pending = await insertTestUser(t.db, { firstName: 'Pen', lastName: 'Ding' });
    const stranger = await insertTestUser(t.db, { firstName: 'Str', lastName: 'Anger' });
    await customerOf(guardian.id, orgA.id);
    await customerOf(pending.id, orgA.id);
    await customerOf(stranger.id, orgA.id);
    const child = await insertTestUser(t.db, {
      firstName: 'No',
      lastName: 'Email',
      email: null,
      withPassword: false,
      createdByUserId: guardian.id,
    });
    await customerOf(child.id, orgA.id);
    await linkChild(t.db, guardian.id, claimed.id);
    await linkChild(t.db, guardian.id, child.id);
    await linkChild(t.db, pending.id, claimed.id, null, { confirmed: false });
    await linkChild(t.db, pending.id, unclaimed.id, orgA.id, { confirmed: false });
    const staffA = await insertTestUser(t.db, { firstName: 'Sta', lastName: 'Ffa' });
    const staffB = await insertTestUser(t.db, { firstName: 'Sta', lastName: 'Ffb' });
    const clerkA = await insertTestUser(t.db, { firstName: 'Cle', lastName: 'Rk' });
    await addMembership(t.db, staffA.id, orgA.id, 'staff');
    await addMembership(t.db, staffB.id, orgB.id, 'staff');
    await addMembership(
      t.db,
      clerkA.id,
      orgA.id,
      'staff',
      claims.filter((c) => c !== 'view-customers'),
    );
    const admin = await insertTestUser(t.db, { firstName: 'Ad', lastName: 'Min', role: 'admin' });
    const customerA = { profileType: 'use-customer', profileOrgId: orgA.id };
    const askers: Record<Asker, { user: typeof claimed; login: Record<string, string> }> = {
      self: { user: claimed, login: customerA },
      'guardian-confirmed': { user: guardian, login: customerA },
      'guardian-unconfirmed': { user: pending, login: customerA },
      'staff-creating-org': {
        user: staffA,
        login: { profileType: 'use-org', profileOrgId: orgA.id },
      },
      'staff-other-org': { user: staffB, login: { profileType: 'use-org', profileOrgId: orgB.id } },
      'staff-without-claim': {
        user: clerkA,
        login: { profileType: 'use-org', profileOrgId: orgA.id },
      },
      stranger: { user: stranger, login: customerA },
      admin: { user: admin, login: {} },
    };
    const subjects: Record<Subject, string> = {
      claimed: claimed.id,
      'unclaimed-made-by-org': unclaimed.id,
      'child-without-email': child.id,
    };
    return { askers, subjects };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    people = await seed();
  });
  afterAll(() => t.close());

  const sessionOf = async (asker: Asker): Promise<CookieJar> => {
    const { user, login } = people.askers[asker];
    return (await logInAs(t.app, user.email!, login)).jar;
  };
  const principalOf = async (jar: CookieJar): Promise<Principal> => {
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() })
    ).json<{
      id: string;
      view: 'org' | 'customer';
      org: { id: string } | null;
      claims: string[];
      role: 'user' | 'admin';
    }>();
    return {
      userId: me.id,
      view: me.view,
      orgId: me.org?.id ?? null,
      claims: me.claims,
      role: me.role,
      switchedFrom: null,
    };
  };

  /** Each action, reached the way a device reaches it; answers the status. */
  const through: Record<ActForAction, (jar: CookieJar, subjectId: string) => Promise<number>> = {
    'read-family': async (jar, subjectId) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/guardians',
          headers: jar.headers(),
          payload: { action: 'get-guardians', userId: subjectId },
        })
      ).statusCode,
    'manage-family': async (jar, subjectId) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/guardians',
          headers: jar.headers(),
          payload: {
            action: 'add-guardian',
            userId: subjectId,
            signupDto: { email: uniqueEmail('matrix'), firstName: 'New', lastName: 'Guardian' },
            skipResetPasswordMail: true,
          },
        })
      ).statusCode,
    switch: async (jar, subjectId) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            impersonate: subjectId,
            redirectTo: '/dashboard',
          }).toString(),
        })
      ).statusCode,
    // What replication reads: the children a customer session's family scope holds.
    replicate: async (jar, subjectId) => {
      const principal = await principalOf(jar);
      if (principal.view !== 'customer') return 403;
      const family = [principal.userId, ...(await childrenActedFor(t.db, principal.userId))];
      return family.includes(subjectId) ? 200 : 404;
    },
  };

  for (const [asker, subject, outcomes] of matrix) {
    it(`${asker} → ${subject}: ${outcomes.join(' ')}`, async () => {
      const subjectId = people.subjects[subject];
      for (const [index, action] of actForActions.entries()) {
        const expected = outcomes[index]!;
        // A fresh session per action: a switch that succeeds ends the session it came from.
        const jar = await sessionOf(asker);
        const principal = await principalOf(jar);
        expect(await through[action](jar, subjectId), `${action} through its endpoint`).toBe(
          expected,
        );
        if (action === 'replicate') continue;
        const decision = await decideActFor(t.db, principal, subjectId, action);
        const granted = !isRefusal(decision);
        expect(granted, `${action} by the decision point`).toBe(
          expected === 200 || expected === 303,
        );
        if (!granted && action !== 'switch') expect(decision).toMatchObject({ refused: expected });
      }
    });
  }

  it('a guardian switched into an account acts for it but never decides as its owner', async () => {
    const guardianJar = await sessionOf('guardian-confirmed');
    const claimedId = people.subjects.claimed;
    const switched = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...guardianJar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ impersonate: claimedId, redirectTo: '/dashboard' }).toString(),
    });
    expect(switched.statusCode).toBe(303);
    const jar = new CookieJar().store(switched);
    const guardians = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/guardians', headers: jar.headers(), payload });
    // The pending guardian's link stays pending: only the owner confirms.
    const confirm = await guardians({
      action: 'confirm-guardian',
      userId: claimedId,
      guardianUserId: people.askers['guardian-unconfirmed'].user.id,
    });
    expect(confirm.statusCode).toBe(403);
    expect(confirm.json().message).toBe(familyMessages.onlyOwnerConfirms);
    // A guardian it adds waits for the owner too.
    const added = await guardians({
      action: 'add-guardian',
      userId: claimedId,
      signupDto: { email: uniqueEmail('co-parent'), firstName: 'Co', lastName: 'Parent' },
      skipResetPasswordMail: true,
    });
    expect(added.json()).toMatchObject({ awaitingConfirmation: true });
    // Nor does it answer the owner's invitations.
    const invitations = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${crypto.randomUUID()}/accept`,
      headers: jar.headers(),
    });
    expect(invitations.statusCode).toBe(403);
  });

  it('answers the same for an id that is not a person and one that exists but is not theirs', async () => {
    const jar = await sessionOf('stranger');
    const principal = await principalOf(jar);
    for (const id of [crypto.randomUUID(), 'not-a-uuid', people.subjects.claimed])
      expect(await decideActFor(t.db, principal, id, manage)).toEqual({
        refused: 404,
        reason: 'unknown-person',
      });
    expect(await decideActFor(t.db, principal, principal.userId, read)).toEqual({ as: 'self' });
  });
});
