import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { guardianLinks, memberships, rosterItems, users } from '@platform/schema/db';
import { mailsTo, tokenIn } from '../families/families.fixtures.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { GOOGLE_TEST_CLIENT_ID, googleSigner } from '../testing/google-signer.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * The two account takeovers a review carried out against a running server (issue 11), replayed
 * request by request. Each step that used to succeed is refused now.
 */
describe.each(testDatabaseKinds)('account takeover stories, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let google: Awaited<ReturnType<typeof googleSigner>>;

  beforeAll(async () => {
    google = await googleSigner();
    t = await createTestApp(kind, {
      env: { GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID },
      googleKeys: google.keys,
    });
  });
  afterAll(() => t.close());

  const post = (jar: CookieJar | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: jar?.headers() ?? {}, payload });
  const switchInto = (jar: CookieJar, userId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ impersonate: userId, redirectTo: '/dashboard' }).toString(),
    });
  const me = async (jar: CookieJar) =>
    (await t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() })).json<{
      id: string;
      children: Array<{ id: string }>;
      pendingRequests: number;
    }>();
  const guardiansOf = (childUserId: string) =>
    t.db.select().from(guardianLinks).where(eq(guardianLinks.childUserId, childUserId));
  const userByEmail = async (email: string) =>
    (await t.db.select().from(users).where(eq(users.email, email)))[0]!;
  const owner = async (label: string) => {
    const org = await insertTestOrg(t.db, label);
    const person = await insertTestUser(t.db, { firstName: label, lastName: 'Owner' });
    await addMembership(t.db, person.id, org.id, 'staff');
    const { jar } = await logInAs(t.app, person.email!, {
      profileType: 'use-org',
      profileOrgId: org.id,
    });
    return { org, person, jar };
  };
  /** Forgot password → the emailed link → a new password: the owner of the address claims it. */
  const claimByReset = async (email: string) => {
    expect((await post(null, '/api/auth/forgot-password', { email })).statusCode).toBe(200);
    await drainJobs(t.app); // the reset email is made by a job (decision 0015)
    const [mail] = await mailsTo(t.db, email);
    const reset = await post(null, '/api/auth/reset-password', {
      token: tokenIn(mail!.textBody),
      password: 'the-owners-own-password',
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { identifier: email, password: 'the-owners-own-password' },
    });
    expect(login.statusCode).toBe(200);
    return new CookieJar().store(login);
  };

  it('story 1: another organisation cannot enrol, parent or become the invited person', async () => {
    const a = await owner('Alpha Gym');
    const b = await owner('Beta Gym');
    const newbie = uniqueEmail('newbie');
    // 1. Org A invites newbie: a password-less account A made.
    expect((await post(a.jar, '/api/crm/customers', { customerEmail: newbie })).statusCode).toBe(
      201,
    );
    const account = await userByEmail(newbie);
    // A's staff give it a guardian while it is theirs to act for (a link made in A's context).
    const guardianEmail = uniqueEmail('a-guardian');
    const byA = await post(a.jar, '/api/guardians', {
      action: 'add-guardian',
      userId: account.id,
      signupDto: { email: guardianEmail, firstName: 'Alpha', lastName: 'Guardian' },
      skipResetPasswordMail: true,
    });
    expect(byA.statusCode).toBe(200);

    // 2. Org B adds the same address: an invitation, not an enrolment.
    expect((await post(b.jar, '/api/crm/customers', { customerEmail: newbie })).statusCode).toBe(
      201,
    );
    const bMembership = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, account.id), eq(memberships.orgId, b.org.id)));
    expect(bMembership).toEqual([]);
    // B's owner on B's list too, then "guardian of newbie": refused — B did not make newbie.
    expect(
      (await post(b.jar, '/api/crm/customers', { customerEmail: b.person.email })).statusCode,
    ).toBe(201);
    const takeover = await post(b.jar, '/api/guardians', {
      action: 'add-guardian',
      userId: account.id,
      signupDto: { email: b.person.email, firstName: 'Beta', lastName: 'Owner' },
    });
    expect(takeover.statusCode).toBe(404);
    const attach = await post(b.jar, '/api/auth/create-account', {
      action: 'attach-child-to-guardian',
      guardianUserId: b.person.id,
      childUserId: account.id,
    });
    expect(attach.statusCode).toBe(404);
    expect(
      await t.db
        .select()
        .from(guardianLinks)
        .where(
          and(
            eq(guardianLinks.childUserId, account.id),
            eq(guardianLinks.guardianUserId, b.person.id),
          ),
        ),
    ).toEqual([]);

    // 3. Newbie accepts A's invitation and sets a password.
    const invitation = (await mailsTo(t.db, newbie)).find((mail) =>
      mail.textBody.includes(`orgId=${a.org.id}`),
    )!;
    const token = /invitation=([\w-]+)/.exec(invitation.textBody)![1]!;
    const signup = await post(null, '/api/auth/create-account', {
      action: 'signup',
      signupDto: {
        email: newbie,
        password: 'newbies-own-password',
        firstName: 'New',
        lastName: 'Bie',
        orgId: a.org.id,
        invitation: token,
      },
    });
    expect(signup.statusCode).toBe(200);
    const newbieJar = new CookieJar().store(signup);
    // B's owner cannot become newbie; B's staff cannot touch the link A's staff made.
    expect((await switchInto(b.jar, account.id)).statusCode).toBe(403);
    const accept = await t.app.inject({
      method: 'GET',
      url: '/api/invitations',
      headers: newbieJar.headers(),
    });
    const fromB = accept
      .json<Array<{ id: string; orgId: string }>>()
      .find((i) => i.orgId === b.org.id)!;
    expect(fromB).toBeDefined();
    const accepted = await post(newbieJar, `/api/invitations/${fromB.id}/accept`, {});
    expect(accepted.json()).toEqual({ success: true });
    const guardian = await userByEmail(guardianEmail);
    const bRemoves = await post(b.jar, '/api/guardians', {
      action: 'remove-guardian',
      userId: account.id,
      guardianUserId: guardian.id,
    });
    expect(bRemoves.statusCode).toBe(403);
    // A's staff act for newbie no more: newbie owns the account now.
    const aAgain = await post(a.jar, '/api/guardians', {
      action: 'add-guardian',
      userId: account.id,
      signupDto: { email: uniqueEmail('late'), firstName: 'Late', lastName: 'Comer' },
    });
    expect(aAgain.statusCode).toBe(403);
    // The link A's staff made waits for newbie, who sees it and decides.
    const mine = await post(newbieJar, '/api/guardians', {
      action: 'get-guardians',
      userId: account.id,
    });
    expect(mine.json()).toEqual([
      expect.objectContaining({ id: guardian.id, awaitingConfirmation: true }),
    ]);
    expect((await me(newbieJar)).pendingRequests).toBe(1);
  });

  it('story 2: a child made with a stranger’s address never hands the stranger’s account to its maker', async () => {
    const stranger = uniqueEmail('stranger');
    const maker = uniqueEmail('maker');
    const signup = await post(null, '/api/auth/create-account', {
      action: 'signup',
      signupDto: {
        email: maker,
        password: 'makers-password',
        confirmPassword: 'makers-password',
        firstName: 'Mal',
        lastName: 'Maker',
        children: [{ firstName: 'Not', lastName: 'Mine', email: stranger }],
      },
    });
    expect(signup.statusCode).toBe(200);
    const makerLogin = async () =>
      new CookieJar().store(
        await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { identifier: maker, password: 'makers-password' },
        }),
      );
    const child = await userByEmail(stranger);
    // The maker may not act as the address's owner, even before the owner turns up.
    expect((await me(await makerLogin())).children).toEqual([]);
    expect((await switchInto(await makerLogin(), child.id)).statusCode).toBe(403);

    // The stranger signs up ("email already exists"), resets the password and signs in.
    const theirSignup = await post(null, '/api/auth/create-account', {
      action: 'signup',
      signupDto: {
        email: stranger,
        password: 'x-long-password',
        firstName: 'Real',
        lastName: 'Owner',
      },
    });
    expect(theirSignup.json().errors).toEqual([
      { field: 'email', message: signupMessages.emailTaken },
    ]);
    const strangerJar = await claimByReset(stranger);
    expect((await switchInto(await makerLogin(), child.id)).statusCode).toBe(403);
    // They see who linked them, and remove it.
    const theirs = await post(strangerJar, '/api/guardians', {
      action: 'get-guardians',
      userId: child.id,
    });
    expect(theirs.json()).toEqual([
      expect.objectContaining({ firstName: 'Mal', lastName: 'Maker', awaitingConfirmation: true }),
    ]);
    const makerId = (await userByEmail(maker)).id;
    const removed = await post(strangerJar, '/api/guardians', {
      action: 'remove-guardian',
      userId: child.id,
      guardianUserId: makerId,
    });
    expect(removed.json()).toEqual({ success: true });
  });

  it('story 2 by Google: signing in with Google claims the account, and the maker stays out', async () => {
    const maker = await insertTestUser(t.db, { firstName: 'Mo', lastName: 'Maker' });
    const { jar } = await logInAs(t.app, maker.email!);
    const stranger = uniqueEmail('google-stranger');
    const created = await post(jar, '/api/auth/create-account', {
      action: 'create-children',
      guardianUserId: maker.id,
      signupDtos: [{ firstName: 'Not', lastName: 'Mine', email: stranger }],
    });
    expect(created.statusCode).toBe(200);
    const child = await userByEmail(stranger);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/login-with-google',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        id_token: await google.sign({ sub: `google-${child.id}`, email: stranger }),
      }).toString(),
    });
    expect(signIn.statusCode).toBe(303);
    const strangerJar = new CookieJar().store(signIn);
    expect((await me(strangerJar)).id).toBe(child.id);
    expect((await userByEmail(stranger)).claimedAt).toBeInstanceOf(Date);
    const makerAgain = (await logInAs(t.app, maker.email!)).jar;
    expect((await switchInto(makerAgain, child.id)).statusCode).toBe(403);
    expect((await me(strangerJar)).pendingRequests).toBe(1);
  });

  it('a claim takes back every link someone else confirmed for the address', async () => {
    // A link confirmed by someone other than the owner (say, data from before decision 0035).
    const guardian = await insertTestUser(t.db, { firstName: 'Old', lastName: 'Link' });
    const owned = await insertTestUser(t.db, {
      firstName: 'Own',
      lastName: 'Er',
      withPassword: false,
    });
    await t.db.insert(guardianLinks).values({
      guardianUserId: guardian.id,
      childUserId: owned.id,
      confirmedAt: new Date(),
      confirmedByUserId: guardian.id,
    });
    const { jar } = await logInAs(t.app, guardian.email!);
    const switched = await switchInto(jar, owned.id);
    expect(switched.statusCode).toBe(303);
    const switchedJar = new CookieJar().store(switched);
    expect((await me(switchedJar)).id).toBe(owned.id);

    await claimByReset(owned.email!);
    const [link] = await t.db
      .select()
      .from(guardianLinks)
      .where(eq(guardianLinks.childUserId, owned.id));
    expect(link).toMatchObject({ confirmedAt: null, confirmedByUserId: null });
    // The guardian's switched session ended with the claim.
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: switchedJar.headers(),
    });
    expect(after.statusCode).toBe(401);
  });

  it('checks a switched session on every request: removing the link ends the switch', async () => {
    const org = await insertTestOrg(t.db, 'Gamma Gym');
    const parent = await insertTestUser(t.db, { firstName: 'Par', lastName: 'Ent' });
    const coParent = await insertTestUser(t.db, { firstName: 'Co', lastName: 'Parent' });
    const kid = await insertTestUser(t.db, {
      firstName: 'Kid',
      lastName: 'Ent',
      email: null,
      withPassword: false,
      createdByUserId: parent.id,
    });
    for (const person of [parent, coParent, kid])
      await addMembership(t.db, person.id, org.id, 'customer');
    await linkChild(t.db, parent.id, kid.id);
    await linkChild(t.db, coParent.id, kid.id);
    const { jar } = await logInAs(t.app, parent.email!, {
      profileType: 'use-customer',
      profileOrgId: org.id,
    });
    const switched = new CookieJar().store(await switchInto(jar, kid.id));
    expect((await me(switched)).id).toBe(kid.id);
    // The co-parent disconnects the parent from the child (a confirmed guardian manages the
    // child's guardians).
    const coJar = (
      await logInAs(t.app, coParent.email!, { profileType: 'use-customer', profileOrgId: org.id })
    ).jar;
    const removed = await post(coJar, '/api/guardians', {
      action: 'remove-guardian',
      userId: kid.id,
      guardianUserId: parent.id,
    });
    expect(removed.json()).toEqual({ success: true });
    const next = await t.app.inject({ method: 'GET', url: '/api/me', headers: switched.headers() });
    expect(next.statusCode).toBe(401);
    const pull = await t.app.inject({
      method: 'GET',
      url: '/api/sync/bookings/pull',
      headers: switched.headers(),
    });
    expect(pull.statusCode).toBe(401);
  });

  it('A15: the children without an email an organisation made pass to the family when the parent claims', async () => {
    const a = await owner('Kid Gym');
    const parentEmail = uniqueEmail('parent');
    const added = await post(a.jar, '/api/crm/customers', {
      customerEmail: parentEmail,
      customerFirstName: 'Pat',
      customerLastName: 'Parent',
    });
    expect(added.statusCode).toBe(201);
    const parent = await userByEmail(parentEmail);
    const children = (guardianUserId: string, firstName: string) =>
      post(a.jar, '/api/auth/create-account', {
        action: 'create-children',
        guardianUserId,
        signupDtos: [{ firstName, lastName: 'Kid' }],
      });
    // While nobody has claimed them, the organisation's staff act for the family they made.
    const kid = (await children(parent.id, 'Kit')).json<Array<{ id: string }>>()[0]!.id;
    const grandkid = (await children(kid, 'Gil')).json<Array<{ id: string }>>()[0]!.id;

    const parentJar = await claimByReset(parentEmail);
    // Now the children are the family's: staff may not give them a guardian they control,
    // take the parent away, or add children under them.
    for (const child of [kid, grandkid]) {
      const puppet = await post(a.jar, '/api/guardians', {
        action: 'add-guardian',
        userId: child,
        signupDto: { email: uniqueEmail('puppet'), firstName: 'Pup', lastName: 'Pet' },
        skipResetPasswordMail: true,
      });
      expect(puppet.statusCode).toBe(403);
      expect((await children(child, 'More')).statusCode).toBe(403);
    }
    const takeAway = await post(a.jar, '/api/guardians', {
      action: 'remove-guardian',
      userId: kid,
      guardianUserId: parent.id,
    });
    expect(takeAway.statusCode).toBe(403);
    // Staff still see the family of their customer; the parent still has her child.
    expect(
      (await post(a.jar, '/api/guardians', { action: 'get-guardians', userId: kid })).statusCode,
    ).toBe(200);
    const mine = await post(parentJar, '/api/guardians', {
      action: 'get-guardians-of',
      guardianUserId: parent.id,
    });
    expect(mine.json()).toEqual([expect.objectContaining({ id: kid })]);
    expect((await guardiansOf(kid)).map((link) => link.guardianUserId)).toEqual([parent.id]);
    expect((await switchInto(parentJar, kid)).statusCode).toBe(303);
  });

  it('A13: naming an address as a guardian tells nothing about its account', async () => {
    const victim = await insertTestUser(t.db, { firstName: 'Victoria', lastName: 'Secretname' });
    const asker = await insertTestUser(t.db, { firstName: 'Ask', lastName: 'Er' });
    const { jar } = await logInAs(t.app, asker.email!);
    const fresh = uniqueEmail('fresh');
    const add = (email: string) =>
      post(jar, '/api/guardians', {
        action: 'add-guardian',
        userId: asker.id,
        signupDto: { email, firstName: 'Typed', lastName: 'Name' },
        skipResetPasswordMail: true,
      });
    const existing = await add(victim.email!);
    const unknown = await add(fresh);
    const freshId = (await userByEmail(fresh)).id;
    /** The answer with the account's id and address (both known to the asker) blanked. */
    const shape = (text: string, id: string, email: string) =>
      text.replaceAll(id, '<id>').replaceAll(email, '<email>');
    expect(existing.statusCode).toBe(unknown.statusCode);
    expect(shape(existing.body, victim.id, victim.email!)).toBe(
      shape(unknown.body, freshId, fresh),
    );
    // The list of the asker's guardians: both as typed, in the same shape.
    const list = await post(jar, '/api/guardians', { action: 'get-guardians', userId: asker.id });
    const [first, second] = list.json<object[]>();
    expect(shape(JSON.stringify(first), victim.id, victim.email!)).toBe(
      shape(JSON.stringify(second), freshId, fresh),
    );
    expect(list.json()).toEqual([
      expect.objectContaining({ id: victim.id, firstName: 'Typed', lastName: 'Name' }),
      expect.objectContaining({ id: freshId, firstName: 'Typed', lastName: 'Name' }),
    ]);
    // The guardian sees the asker by the asker's own names: the asker chose to be known.
    const victimJar = (await logInAs(t.app, victim.email!)).jar;
    const theirs = await post(victimJar, '/api/guardians', {
      action: 'get-guardians-of',
      guardianUserId: victim.id,
    });
    expect(theirs.json()).toEqual([
      {
        id: asker.id,
        firstName: 'Ask',
        lastName: 'Er',
        email: asker.email,
        awaitingConfirmation: false,
      },
    ]);
  });

  it('A13: a guardian added for someone else, awaiting its owner, is named as typed; the child keeps her own names', async () => {
    const child = await insertTestUser(t.db, { firstName: 'Chloe', lastName: 'Owner' });
    const guardian = await insertTestUser(t.db, { firstName: 'Gwen', lastName: 'Guardian' });
    const other = await insertTestUser(t.db, { firstName: 'Olga', lastName: 'Realname' });
    const childJar = (await logInAs(t.app, child.email!)).jar;
    const made = await post(childJar, '/api/guardians', {
      action: 'add-guardian',
      userId: child.id,
      signupDto: { email: guardian.email, firstName: 'Mum', lastName: 'Typed' },
    });
    expect(made.json()).toMatchObject({ awaitingConfirmation: false });
    // Gwen, a confirmed guardian, names Olga as Chloe's guardian too: it waits for Chloe.
    const guardianJar = (await logInAs(t.app, guardian.email!)).jar;
    const asked = await post(guardianJar, '/api/guardians', {
      action: 'add-guardian',
      userId: child.id,
      signupDto: { email: other.email, firstName: 'Aunt', lastName: 'Typed' },
    });
    expect(asked.json()).toMatchObject({ awaitingConfirmation: true });
    const list = await post(guardianJar, '/api/guardians', {
      action: 'get-guardians',
      userId: child.id,
    });
    expect(list.json()).toEqual([
      expect.objectContaining({ id: guardian.id, firstName: 'Mum', lastName: 'Typed' }),
      expect.objectContaining({ id: other.id, firstName: 'Aunt', lastName: 'Typed' }),
    ]);
    // Olga sees the child by the child's own names, not by the names typed for Olga.
    const otherJar = (await logInAs(t.app, other.email!)).jar;
    const hers = await post(otherJar, '/api/guardians', {
      action: 'get-guardians-of',
      guardianUserId: other.id,
    });
    expect(hers.json()).toEqual([
      expect.objectContaining({
        id: child.id,
        firstName: 'Chloe',
        lastName: 'Owner',
        awaitingConfirmation: true,
      }),
    ]);
  });

  it('A2b: an organisation whose invitation is pending keeps the names its staff typed', async () => {
    const a = await owner('Alpha Club');
    const b = await owner('Beta Club');
    const email = uniqueEmail('pat');
    const addTo = (org: typeof a, firstName: string) =>
      post(org.jar, '/api/crm/customers', {
        customerEmail: email,
        customerFirstName: firstName,
        customerLastName: 'Typed',
      });
    expect((await addTo(a, 'Alpha')).statusCode).toBe(201);
    const atB = await addTo(b, 'Beta');
    expect(atB.statusCode).toBe(201);
    const profileAt = async (org: typeof a, rosterId: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/crm/customers/${rosterId}`,
          headers: org.jar.headers(),
        })
      ).json<{ contact: { firstName: string; lastName: string }; invitationPending: boolean }>();
    const bRoster = atB.json<{ id: string }>().id;
    // The person claims the account through A's invitation, with their own names.
    const invitation = (await mailsTo(t.db, email)).find((mail) =>
      mail.textBody.includes(`orgId=${a.org.id}`),
    )!;
    const signup = await post(null, '/api/auth/create-account', {
      action: 'signup',
      signupDto: {
        email,
        password: 'pats-own-password',
        firstName: 'Real',
        lastName: 'Pat',
        orgId: a.org.id,
        invitation: /invitation=([\w-]+)/.exec(invitation.textBody)![1]!,
      },
    });
    expect(signup.statusCode).toBe(200);
    const patJar = new CookieJar().store(signup);
    expect(await profileAt(b, bRoster)).toMatchObject({
      contact: { firstName: 'Beta', lastName: 'Typed' },
      invitationPending: true,
    });
    // Renaming themself does not tell B either.
    const renamed = await post(patJar, '/api/settings', {
      action: 'update-profile',
      firstName: 'Renamed',
      lastName: 'Pat',
    });
    expect(renamed.statusCode).toBe(200);
    expect((await profileAt(b, bRoster)).contact).toMatchObject({ firstName: 'Beta' });
    const [pending] = await t.db
      .select()
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, b.org.id), eq(rosterItems.id, bRoster)));
    expect(pending).toMatchObject({ firstName: 'Beta', lastName: 'Typed' });
    // Once the person accepts B, B sees their own names.
    const invitations = await t.app.inject({
      method: 'GET',
      url: '/api/invitations',
      headers: patJar.headers(),
    });
    const fromB = invitations
      .json<Array<{ id: string; orgId: string }>>()
      .find((i) => i.orgId === b.org.id)!;
    expect((await post(patJar, `/api/invitations/${fromB.id}/accept`, {})).json()).toEqual({
      success: true,
    });
    expect(await profileAt(b, bRoster)).toMatchObject({
      contact: { firstName: 'Renamed', lastName: 'Pat' },
      invitationPending: false,
    });
  });
});
