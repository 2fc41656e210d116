import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, like } from 'drizzle-orm';
import {
  emailOutbox,
  productInvites,
  products,
  rateLimits,
  rosterItems,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import {
  acceptInviteResponseSchema,
  customerInviteSchema,
  packageInviteMessages,
  pendingInvitesResponseSchema,
  sendPackageInviteResponseSchema,
} from '@platform/schema/payments/package-invite.zod';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };
const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const declining = { ...visa, number: '4000000000000002' };

type Person = { id: string; email: string; jar: CookieJar; rosterId: string };

/**
 * Invitations to products over POST /api/package-invite (spec §3 action types, §5, §7; issue
 * 15): staff who sell send, list and cancel them; the invited customer — and nobody else —
 * reads one and pays it, once however often it is sent; a child pays only through a guardian's
 * switched session; a customer paying outside the platform gets the subscription recorded.
 */
describe.each(testDatabaseKinds)('invitations to products on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let orgId: string;
  let owner: CookieJar;
  let coach: CookieJar;
  let otherOwner: CookieJar;
  let ann: Person;
  let ben: Person;
  let ext: Person;
  let kid: Person;
  let parent: Person;
  let productId: string;

  const post = (jar: CookieJar | null, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/package-invite',
      payload,
      ...(jar ? { headers: jar.headers() } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    const org = await insertTestOrg(t.db);
    orgId = org.id;
    const other = await insertTestOrg(t.db);
    const staff = async (orgId: string, claims?: string[]) => {
      const user = await insertTestUser(t.db);
      await addMembership(t.db, user.id, orgId, 'staff', claims);
      return (await logInAs(t.app, user.email!)).jar;
    };
    owner = await staff(org.id);
    coach = await staff(org.id, ['view-customers']);
    otherOwner = await staff(other.id);
    const customer = async (firstName: string, extra: { externalPayments?: boolean } = {}) => {
      const user = await insertTestUser(t.db, { firstName, lastName: 'Test' });
      await addMembership(t.db, user.id, org.id, 'customer');
      const [row] = await t.db
        .insert(rosterItems)
        .values({
          orgId: org.id,
          userId: user.id,
          firstName,
          lastName: 'Test',
          email: user.email,
          updatedAt: new Date(),
          ...extra,
        })
        .returning();
      const { jar } = await logInAs(t.app, user.email!, {
        profileType: 'use-customer',
        profileOrgId: org.id,
      });
      return { id: user.id, email: user.email!, jar, rosterId: row!.id };
    };
    ann = await customer('Ann');
    ben = await customer('Ben');
    ext = await customer('Ext', { externalPayments: true });
    kid = await customer('Kid');
    parent = await customer('Parent');
    await linkChild(t.db, parent.id, kid.id, org.id);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: monthly,
      headers: owner.headers(),
    });
    productId = created.json<{ id: string }>().id;
  });
  afterAll(() => t.close());

  const invite = async (person: Person, extra: object = {}) => {
    const sent = await post(owner, {
      action: 'send-package-invite',
      rosterId: person.rosterId,
      productId,
      ...extra,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    return sendPackageInviteResponseSchema.parse(sent.json());
  };

  it('emails the customer an invitation that stays pending and is listed', async () => {
    const { invite: sent, message } = await invite(ann);
    expect(sent).toMatchObject({
      action: 'create-customer-subscription-invite',
      status: 'pending',
    });
    expect(message).toBe(`Invitation sent to ${ann.email}.`);
    const [mail] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, ann.email));
    expect(mail?.textBody).toContain(`/dashboard-customer/${orgId}/invites/${sent.id}`);
    const listed = pendingInvitesResponseSchema.parse(
      (await post(owner, { action: 'get-pending-invites', rosterId: ann.rosterId })).json(),
    );
    expect(listed.invites.map((i) => i.id)).toEqual([sent.id]);
    expect(listed.invites[0]).toMatchObject({ customerName: 'Ann Test', productName: 'Unlimited' });
    // Another organisation's seller sees none of it and cannot cancel it.
    const theirs = pendingInvitesResponseSchema.parse(
      (await post(otherOwner, { action: 'get-pending-invites' })).json(),
    );
    expect(theirs.invites).toEqual([]);
    expect(
      (await post(otherOwner, { action: 'cancel-package-invite', inviteId: sent.id })).statusCode,
    ).toBe(404);
  });

  it('checks the spec §5 rules with their messages', async () => {
    const variable = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: {
        ...monthly,
        name: 'Coaching',
        variablePricing: { enabled: true, prices: [{ price: 4_000 }, { price: 6_000 }] },
      },
      headers: owner.headers(),
    });
    const coaching = variable.json<{ id: string }>().id;
    const noPrice = await post(owner, {
      action: 'send-package-invite',
      rosterId: ben.rosterId,
      productId: coaching,
    });
    expect(noPrice.statusCode).toBe(422);
    expect(JSON.stringify(noPrice.json())).toContain(packageInviteMessages.priceRequired);
    await t.db.update(products).set({ processorProductId: null }).where(eq(products.id, coaching));
    const notAtProcessor = await post(owner, {
      action: 'send-package-invite',
      rosterId: ben.rosterId,
      productId: coaching,
      priceMinor: 5_000,
    });
    expect(JSON.stringify(notAtProcessor.json())).toContain(
      'Invites can only be sent for products managed via Stripe',
    );
    const tooLate = await post(owner, {
      action: 'send-package-invite',
      rosterId: ben.rosterId,
      productId,
      startDate: '2099-01-01',
    });
    expect(JSON.stringify(tooLate.json())).toContain(
      'The start date must be within 30 days from today.',
    );
  });

  it('lets only the invited customer read and pay it: a declined card leaves it open, paying at once charges once', async () => {
    const { invite: sent } = await invite(ann);
    expect(
      (await post(ben.jar, { action: 'get-package-invite', inviteId: sent.id })).statusCode,
    ).toBe(404);
    expect(
      (await post(owner, { action: 'get-package-invite', inviteId: sent.id })).statusCode,
    ).toBe(404);
    const read = await post(ann.jar, { action: 'get-package-invite', inviteId: sent.id });
    expect(read.statusCode).toBe(200);
    expect(customerInviteSchema.parse(read.json())).toMatchObject({
      status: 'pending',
      totals: { total: 9_900 },
      product: { name: 'Unlimited' },
    });
    const refused = acceptInviteResponseSchema.parse(
      (
        await post(ann.jar, { action: 'accept-package-invite', inviteId: sent.id, card: declining })
      ).json(),
    );
    expect(refused).toEqual({ valid: false, message: 'Your card was declined.' });
    // Ben may not pay Ann's invitation, even with a good card.
    expect(
      (await post(ben.jar, { action: 'accept-package-invite', inviteId: sent.id, card: visa }))
        .statusCode,
    ).toBe(404);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(ann.jar, { action: 'accept-package-invite', inviteId: sent.id, card: visa }),
      ),
    );
    const results = answers.map((a) => acceptInviteResponseSchema.parse(a.json()));
    expect(results.some((r) => r.valid)).toBe(true);
    const [row] = await t.db.select().from(productInvites).where(eq(productInvites.id, sent.id));
    expect(row).toMatchObject({ status: 'accepted' });
    const [charged] = await t.db
      .select({ n: count() })
      .from(sandboxCharges)
      .where(
        and(
          eq(sandboxCharges.orgId, orgId),
          eq(sandboxCharges.outcome, 'succeeded'),
          eq(sandboxCharges.amountMinor, 9_900),
        ),
      );
    expect(charged?.n).toBe(1);
    const started = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, ann.id));
    expect(started).toEqual([expect.objectContaining({ status: 'active', priceMinor: 9_900 })]);
    // Answered: no longer pending, not cancellable.
    const cancel = await post(owner, { action: 'cancel-package-invite', inviteId: sent.id });
    expect(JSON.stringify(cancel.json())).toContain(packageInviteMessages.notPending);
  });

  it('stops a cancelled invitation from being paid', async () => {
    const { invite: sent } = await invite(ben);
    const cancelled = await post(owner, { action: 'cancel-package-invite', inviteId: sent.id });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const paid = await post(ben.jar, {
      action: 'accept-package-invite',
      inviteId: sent.id,
      card: visa,
    });
    expect(paid.statusCode).toBe(422);
    expect(JSON.stringify(paid.json())).toContain(packageInviteMessages.notPending);
  });

  it('records a subscription paid outside the platform for an external-payments customer, charging nothing', async () => {
    const { invite: sent } = await invite(ext);
    expect(sent).toMatchObject({
      action: 'start-customer-subscription-for-external-payment',
      status: 'accepted',
    });
    const rows = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, ext.id));
    expect(rows).toEqual([expect.objectContaining({ externalPayments: true, status: 'active' })]);
    const mails = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, ext.email));
    expect(mails).toEqual([]);
  });

  it('has a child pay only in a session their guardian switched into', async () => {
    const { invite: sent } = await invite(kid);
    const own = await post(kid.jar, { action: 'get-package-invite', inviteId: sent.id });
    expect(own.statusCode).toBe(403);
    const switched = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...parent.jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ impersonate: kid.id, redirectTo: '/dashboard' }).toString(),
    });
    expect(switched.statusCode).toBe(303);
    parent.jar.store(switched);
    const asKid = await post(parent.jar, { action: 'get-package-invite', inviteId: sent.id });
    expect(asKid.statusCode).toBe(200);
    // A card tried for the child spends the card budget of the guardian at the keyboard, as
    // every card form does, not a fresh one per child.
    const tried = await post(parent.jar, {
      action: 'accept-package-invite',
      inviteId: sent.id,
      card: declining,
    });
    expect(tried.statusCode).toBe(200);
    const budgets = await t.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(like(rateLimits.key, 'charge-add-card:%'));
    const keys = budgets.map((b) => b.key);
    expect(keys).toContain(`charge-add-card:${parent.id}`);
    expect(keys).not.toContain(`charge-add-card:${kid.id}`);
  });

  it('refuses nobody signed in (401) and staff without the claim (403), before the body', async () => {
    expect((await post(null, { action: 'get-pending-invites' })).statusCode).toBe(401);
    expect((await post(null, { junk: true })).statusCode).toBe(401);
    expect((await post(coach, { action: 'get-pending-invites' })).statusCode).toBe(403);
    expect(
      (await post(coach, { action: 'send-package-invite', rosterId: ann.rosterId, productId }))
        .statusCode,
    ).toBe(403);
    expect((await post(ann.jar, { action: 'get-pending-invites' })).statusCode).toBe(403);
  });
});
