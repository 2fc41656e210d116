import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  exportChunks,
  exportJobs,
  importJobs,
  memberships,
  products,
  punchCardCredits,
  rosterItems,
  users,
} from '@platform/schema/db';
import { importMessages } from '@platform/schema/imports/import-rules';
import type { ImportStatus } from '@platform/schema/imports/import.zod';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { productInputSchema } from '@platform/schema/payments/products.zod';
import { rowsOf } from '../db/open-database.ts';
import * as exportsRepo from '../exports/exports.repository.ts';
import { downloadExport, pruneExpiredArchives, runExport } from '../exports/exports.service.ts';
import { seedFamilies } from '../families/families.fixtures.ts';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import { creditBalancesOf } from '../payments/credits.service.ts';
import type { ChangeNotification } from '../sync/change-feed.ts';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  switchInto,
  uniqueEmail,
  switchTo,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { holdLock, importLockOf } from '../testing/lock-fixtures.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { drainJobs, waitFor } from '../testing/job-fixtures.ts';
import { pullAs, waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { runImport } from './imports.service.ts';

/**
 * Security and integrity review of the punch-card credits import (commit 6f1756a) and of export
 * run ownership (commit 4858f0c). Every test asserts the SAFE behaviour through real requests
 * (or the job's own entry point where a race needs it): a failing test is a finding.
 */
describe.each(testDatabaseKinds)('credits import and export runs under attack on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  let calls: ReturnType<typeof importCalls>;
  const silentLog = { error: () => {} };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await seedFamilies(t.app, t.db);
    calls = importCalls(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  const HEADER = 'customerEmail,productName,credits';

  /** A new organisation with its owner (every claim), signed in to its staff view. */
  const newOrg = () => newOrgWithOwner(t.app, t.db);

  const staffOf = (orgId: string, staffClaims: string[]) =>
    signedInStaff(t.app, t.db, orgId, staffClaims);

  /** A customer of the organisation (membership and roster item), signed in to its customer app. */
  async function customerOf(orgId: string, values: Partial<typeof users.$inferInsert> = {}) {
    const user = await insertTestUser(t.db, values);
    await enrol(orgId, user);
    return user;
  }

  async function enrol(orgId: string, user: { id: string; email: string | null }) {
    await addMembership(t.db, user.id, orgId, 'customer');
    await t.db.insert(rosterItems).values({
      orgId,
      userId: user.id,
      firstName: 'Cus',
      lastName: 'Tomer',
      email: user.email,
      updatedAt: new Date(),
    });
  }

  type Group = { id: string; name: string; credits: number };
  const groupsOf = (n: number): Group[] =>
    Array.from({ length: n }, (_, i) => ({ id: randomUUID(), name: `Group ${i}`, credits: 10 }));

  async function product(
    orgId: string,
    values: Partial<typeof products.$inferInsert> & { groups?: Group[] } = {},
  ) {
    const { groups = groupsOf(1), ...rest } = values;
    const [row] = await t.db
      .insert(products)
      .values({
        orgId,
        name: `Pack ${randomUUID().slice(0, 8)}`,
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 5_000,
        punchCardConfiguration: { groups },
        updatedAt: new Date(),
        ...rest,
      })
      .returning();
    return row!;
  }

  const ledger = (where: { orgId?: string; productId?: string; userId?: string }) =>
    t.db
      .select()
      .from(punchCardCredits)
      .where(
        and(
          where.orgId ? eq(punchCardCredits.orgId, where.orgId) : undefined,
          where.productId ? eq(punchCardCredits.productId, where.productId) : undefined,
          where.userId ? eq(punchCardCredits.customerUserId, where.userId) : undefined,
        ),
      );

  const creditsFile = (rows: Array<[string, string, string | number]>) =>
    [HEADER, ...rows.map((r) => r.join(','))].join('\n');

  /** Upload (not started) as a browser does: the import's id. */
  const uploaded = (jar: CookieJar, text: string) => calls.uploaded(jar, 'credits', text);

  // ================================================================ credits import: tenancy

  describe('credits import: tenancy', () => {
    it("a row never reaches another organisation's product (by its name, its id, or a name both share)", async () => {
      const a = await newOrg();
      const b = await newOrg();
      const ann = await customerOf(a.org.id);
      const onlyTheirs = await product(b.org.id, { name: `Theirs ${randomUUID().slice(0, 6)}` });
      const sharedName = `Shared ${randomUUID().slice(0, 6)}`;
      // Theirs first in id order would not matter: names map within the importer's catalogue.
      const theirShared = await product(b.org.id, { name: sharedName });
      const ourShared = await product(a.org.id, { name: sharedName });

      const refused = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([
          [ann.email!, onlyTheirs.name, 5],
          [ann.email!, onlyTheirs.id, 5],
        ]),
      );
      expect(refused.status).toBe('refused');
      expect(refused.rowErrors.map((e) => e.message)).toEqual([
        `Product ${onlyTheirs.name} not found`,
        `Product ${onlyTheirs.id} not found`,
      ]);

      const done = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[ann.email!, sharedName, 5]]),
      );
      expect(done).toMatchObject({ status: 'done', result: { credited: 1 } });
      expect((await ledger({ productId: ourShared.id })).map((r) => r.orgId)).toEqual([a.org.id]);
      expect(await ledger({ productId: theirShared.id })).toEqual([]);
      expect(await ledger({ productId: onlyTheirs.id })).toEqual([]);
      expect(await ledger({ orgId: b.org.id })).toEqual([]);
    });

    it("a row never reaches another organisation's customer; one person on both lists is credited in the importer's only", async () => {
      const a = await newOrg();
      const b = await newOrg();
      const pack = await product(a.org.id);
      const theirsOnly = await customerOf(b.org.id);
      const both = await customerOf(a.org.id);
      await enrol(b.org.id, both);
      const stranger = uniqueEmail('nobody');

      const refused = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([
          [theirsOnly.email!, pack.name, 3],
          [stranger, pack.name, 3],
        ]),
      );
      expect(refused.status).toBe('refused');
      // The same words for another organisation's customer as for an address nobody has:
      // nothing tells the importer that the address is a customer elsewhere.
      expect(refused.rowErrors.map((e) => e.message)).toEqual([
        importMessages.emailNotValid.replace('{x}', theirsOnly.email!),
        importMessages.emailNotValid.replace('{x}', stranger),
      ]);
      expect(await ledger({ userId: theirsOnly.id })).toEqual([]);

      const done = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[both.email!, pack.name, 3]]),
      );
      expect(done.status).toBe('done');
      const rows = await ledger({ userId: both.id });
      expect(rows.map((r) => r.orgId)).toEqual([a.org.id]);
      expect(await ledger({ orgId: b.org.id })).toEqual([]);
    });

    it('a removed customer, an archived product and a deleted product are refused like unknown ones', async () => {
      const a = await newOrg();
      const removed = await customerOf(a.org.id);
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, removed.id)));
      const kept = await customerOf(a.org.id);
      const live = await product(a.org.id);
      const archived = await product(a.org.id);
      const archive = await t.app.inject({
        method: 'POST',
        url: `/api/catalogue/products/${archived.id}/archive`,
        headers: a.jar.headers(),
      });
      expect(archive.statusCode, archive.body).toBe(200);
      const deleted = await product(a.org.id, { deleted: true });

      const refused = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([
          [removed.email!, live.name, 1],
          [kept.email!, archived.name, 1],
          [kept.email!, deleted.name, 1],
        ]),
      );
      expect(refused.status).toBe('refused');
      expect(refused.rowErrors.map((e) => e.row)).toEqual([2, 3, 4]);
      expect(await ledger({ orgId: a.org.id })).toEqual([]);
    });

    it.runIf(kind === 'postgres')(
      'a product archived, or a customer removed, while the import waits for its turn is not credited',
      async () => {
        const a = await newOrg();
        const ann = await customerOf(a.org.id);
        const bo = await customerOf(a.org.id);
        const toArchive = await product(a.org.id);
        const other = await product(a.org.id);
        const id = await uploaded(
          a.jar,
          creditsFile([
            [ann.email!, toArchive.name, 4],
            [bo.email!, other.name, 4],
          ]),
        );
        // Another import of the organisation holds its lock: this one is checked, then waits.
        const lock = await holdLock(t.db, importLockOf(a.org.id));
        // The job's row says queued (start), then the job is run here, by hand.
        await t.db.update(importJobs).set({ status: 'queued' }).where(eq(importJobs.id, id));
        const run = runImport({ database: t.database, log: silentLog }, id);
        // It waits outside any transaction, trying the lock again every 200 ms.
        await waitFor('the import to be checked and waiting', async () => {
          const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, id));
          return job?.status === 'running' && job.rowsTotal !== null ? true : undefined;
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        const archived = await t.app.inject({
          method: 'POST',
          url: `/api/catalogue/products/${toArchive.id}/archive`,
          headers: a.jar.headers(),
        });
        expect(archived.statusCode).toBe(200);
        await t.db
          .update(rosterItems)
          .set({ deleted: true, updatedAt: new Date() })
          .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, bo.id)));
        await lock.release();
        await run;
        // Safe: neither the removed customer nor the archived product got credits.
        expect(await ledger({ userId: bo.id })).toEqual([]);
        expect(await ledger({ productId: toArchive.id })).toEqual([]);
      },
    );
  });

  // ================================================================ credits import: the numbers

  describe('credits import: groups and numbers', () => {
    it('20 groups give 20 rows each of the file’s credits; 0 groups are refused', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const twenty = await product(a.org.id, { groups: groupsOf(20) });
      const none = await product(a.org.id, { groups: [] });
      const refused = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[ann.email!, none.name, 1]]),
      );
      expect(refused.rowErrors.map((e) => e.message)).toEqual([
        importMessages.noPunchCard.replace('{x}', none.name),
      ]);
      const done = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[ann.email!, twenty.name, 9]]),
      );
      expect(done).toMatchObject({ status: 'done', result: { credited: 1, unchanged: 0 } });
      const rows = await ledger({ productId: twenty.id });
      expect(rows).toHaveLength(20);
      expect(new Set(rows.map((r) => r.groupId)).size).toBe(20);
      expect(rows.every((r) => r.delta === 9 && r.reason === 'import')).toBe(true);
    });

    it('a product whose two groups share one id (the product API takes it) gives the file’s credits once in that group, not twice', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const pack = await product(a.org.id);
      const groupId = randomUUID();
      const input = {
        name: pack.name,
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 5_000,
        punchCardConfiguration: {
          groups: [
            { id: groupId, name: 'Classes', credits: 10 },
            { id: groupId, name: 'Classes again', credits: 10 },
          ],
        },
      };
      // The product API refuses it now (a group is one balance)…
      expect(productInputSchema.safeParse(input).success).toBe(false);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/catalogue/products/${pack.id}`,
        headers: a.jar.headers(),
        payload: input,
      });
      expect(put.statusCode, put.body).toBe(400);
      // …and a product stored that way before (old data) still gives its credits once.
      await t.db
        .update(products)
        .set({ punchCardConfiguration: input.punchCardConfiguration })
        .where(eq(products.id, pack.id));
      const done = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[ann.email!, pack.name, 7]]),
      );
      expect(done.status).toBe('done');
      const [balance] = await creditBalancesOf(t.db, a.org.id, ann.id);
      // Safe: 7 credits in the group, as the file says (a purchase gives them once per group
      // id: its unique (invoice, group) index) — not 14.
      expect(balance?.balance).toBe(7);
    });

    it('a recurring product that has groups (as no API makes it) gives no credits by import, as a sale would not', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const recurring = await product(a.org.id, { type: 'recurring', schedule: 'month' });
      const answer = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[ann.email!, recurring.name, 5]]),
      );
      expect(answer.status).not.toBe('failed');
      expect(await ledger({ productId: recurring.id })).toEqual([]);
    });

    it('credits: 1 to 100,000 whole numbers only; the limit holds whatever the spelling', async () => {
      const a = await newOrg();
      const pack = await product(a.org.id);
      const people = await Promise.all(Array.from({ length: 13 }, () => customerOf(a.org.id)));
      const bad = [
        '100001',
        '0',
        '-1',
        '1e3',
        '0x10',
        '5.5',
        '+5',
        '99999999999999999999',
        '١٢',
        '1 000',
      ];
      const refused = await calls.importFile(
        a.jar,
        'credits',
        creditsFile(bad.map((value, i) => [people[i]!.email!, pack.name, `"${value}"`])),
      );
      expect(refused.status).toBe('refused');
      expect(refused.rowErrors).toHaveLength(bad.length);
      expect(new Set(refused.rowErrors.map((e) => e.message))).toEqual(
        new Set([importMessages.creditsPositive]),
      );
      const done = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([
          [people[11]!.email!, pack.name, '100000'],
          [people[12]!.email!, pack.name, '000000100000'],
        ]),
      );
      expect(done.status).toBe('done');
      expect((await ledger({ productId: pack.id })).map((r) => r.delta)).toEqual([
        100_000, 100_000,
      ]);
    });

    it('a balance past 2^31 (many ledger rows of 100,000) is summed exactly, on the server and in a pull', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const pack = await product(a.org.id);
      const groupId = (pack.punchCardConfiguration.groups[0] as Group).id;
      await t.db.execute(sql`
        insert into punch_card_credits
          (org_id, customer_user_id, product_id, product_name, group_id, group_name, delta, reason)
        select ${a.org.id}, ${ann.id}, ${pack.id}, ${pack.name}, ${groupId}, 'G', 100000, 'import'
        from generate_series(1, 22000)`);
      const [balance] = await creditBalancesOf(t.db, a.org.id, ann.id);
      expect(balance?.balance).toBe(2_200_000_000);
    });
  });

  // ================================================================ credits import: idempotency

  describe('credits import: races and idempotency', () => {
    it('two imports of the same rows started together and run at once give the credits once', async () => {
      const a = await newOrg();
      const pack = await product(a.org.id, { groups: groupsOf(2) });
      const people = await Promise.all(Array.from({ length: 5 }, () => customerOf(a.org.id)));
      const file = creditsFile(people.map((p) => [p.email!, pack.name, 6]));
      const ids = [await uploaded(a.jar, file), await uploaded(a.jar, `${file}\n`)];
      const started = await Promise.all(ids.map((id) => calls.start(a.jar, id)));
      expect(started.map((s) => s.statusCode)).toEqual([200, 200]);
      await Promise.all([
        ...ids.map((id) => runImport({ database: t.database, log: silentLog }, id)),
        ...ids.map((id) => runImport({ database: t.database, log: silentLog }, id)),
      ]);
      await drainJobs(t.app);
      const rows = await ledger({ productId: pack.id });
      expect(rows).toHaveLength(10);
      const statuses = await Promise.all(
        ids.map(async (id) => (await calls.status(a.jar, id)).json<ImportStatus>()),
      );
      expect(statuses.map((s) => s.status)).toEqual(['done', 'done']);
      expect(statuses.map((s) => s.result?.credited).sort()).toEqual([0, 5]);
    });

    it('the same credits in other letter case, with spaces, or in a second file give nothing more', async () => {
      const a = await newOrg();
      const pack = await product(a.org.id, { name: `Ten Pack ${randomUUID().slice(0, 6)}` });
      const ann = await customerOf(a.org.id);
      const twice = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([
          [ann.email!, pack.name, 2],
          [ann.email!.toUpperCase(), `  ${pack.name.toUpperCase()}  `, 2],
        ]),
      );
      expect(twice.status).toBe('refused');
      expect(twice.rowErrors.map((e) => e.row)).toEqual([3]);
      expect(
        (await calls.importFile(a.jar, 'credits', creditsFile([[ann.email!, pack.name, 2]])))
          .status,
      ).toBe('done');
      const again = await calls.importFile(
        a.jar,
        'credits',
        creditsFile([[` ${ann.email!.toUpperCase()} `, ` ${pack.name.toLowerCase()} `, 50]]),
      );
      expect(again.result).toMatchObject({ credited: 0, unchanged: 1 });
      expect((await ledger({ productId: pack.id })).map((r) => r.delta)).toEqual([2]);
    });

    it('two products of one name: the row is refused, and neither gets credits', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const name = `Twin ${randomUUID().slice(0, 6)}`;
      const twins = [await product(a.org.id, { name }), await product(a.org.id, { name })];
      const done = await calls.importFile(a.jar, 'credits', creditsFile([[ann.email!, name, 3]]));
      expect(done.status).toBe('refused');
      expect(done.rowErrors.map((e) => e.message)).toEqual([
        `Product ${name} names 2 products: give each its own name, then import again`,
      ]);
      for (const twin of twins) expect(await ledger({ productId: twin.id })).toEqual([]);
    });

    it('one address on two accounts of the list (an account stored with capitals): one row credits one person', async () => {
      const a = await newOrg();
      const pack = await product(a.org.id);
      const lower = uniqueEmail('twin');
      const upper = lower.replace(/^twin/, 'TWIN');
      const first = await customerOf(a.org.id, { email: upper });
      const second = await customerOf(a.org.id, { email: lower });
      const done = await calls.importFile(a.jar, 'credits', creditsFile([[lower, pack.name, 5]]));
      const credited = [
        ...(await ledger({ userId: first.id })),
        ...(await ledger({ userId: second.id })),
      ];
      // Safe: one person credited (or the row refused as ambiguous) — not both, and the
      // result's counts add up to the file's rows.
      expect(credited.length, JSON.stringify(done.result)).toBeLessThanOrEqual(1);
      if (done.result) expect(done.result.unchanged).toBeGreaterThanOrEqual(0);
    });
  });

  // ================================================================ credits import: devices

  describe('credits import: devices learn of it', () => {
    it('the import announces the credits to the customer’s devices; the customer, a guardian and staff who sell pull them, nobody else', async () => {
      const child = await customerOf(f.org.id, { email: uniqueEmail('kid') });
      await linkChild(t.db, f.parent.id, child.id, f.org.id);
      const pack = await product(f.org.id);
      const seen: ChangeNotification[] = [];
      const unsubscribe = t.app.changeHub.subscribe((change) => seen.push(change));
      try {
        const done = await calls.importFile(
          f.manager.jar,
          'credits',
          creditsFile([[child.email!, pack.name, 4]]),
        );
        expect(done.status).toBe('done');
        await waitFor('the credits change to be announced', async () =>
          seen.some(
            (c) =>
              c.collection === 'credits' &&
              c.orgId === f.org.id &&
              (c.ownerIds.length === 0 || c.ownerIds.includes(child.id)),
          ),
        );
      } finally {
        unsubscribe();
      }
      await waitForVisibility(t.db);
      type Pulled = { documents: Array<{ productId: string; customerUserId: string }> };
      const pulled = async (jar: CookieJar) => {
        const answer = await pullAs(t, { id: '', email: '', jar }, 'credits', '?batchSize=1000');
        if (answer.statusCode !== 200) return [];
        return answer
          .json<Pulled>()
          .documents.filter((d) => d.productId === pack.id)
          .map((d) => d.customerUserId);
      };
      expect(await pulled(f.parent.jar)).toEqual([child.id]);
      expect(await pulled(f.manager.jar)).toEqual([child.id]);
      const b = await newOrg();
      expect(await pulled(b.jar)).toEqual([]);
      const strangerCustomer = await customerOf(f.org.id);
      const strangerJar = (
        await logInAs(t.app, strangerCustomer.email!, {
          profileType: 'use-customer',
          profileOrgId: f.org.id,
        })
      ).jar;
      expect(await pulled(strangerJar)).toEqual([]);
    });
  });

  // ================================================================ credits import: who may

  describe('credits import: who may import credits', () => {
    it('staff without point of sale or the customer list, customers, kiosks and guardians switched into a staff child are refused', async () => {
      const bytes = 40;
      const body = { kind: 'credits', fileName: 'c.csv', totalBytes: bytes };
      const customersOnly = await staffOf(f.org.id, ['view-customers']);
      const tillOnly = await staffOf(f.org.id, ['manage-point-of-sale']);
      for (const who of [customersOnly, tillOnly])
        expect((await calls.create(who.jar, body)).statusCode).toBe(403);
      expect((await calls.create(f.parent.jar, body)).statusCode).toBe(403);

      const kiosk = await startTestKiosk(t.app, t.db, f.org.id);
      const asKioskCall = await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: asKiosk(kiosk.jar),
        payload: body,
      });
      expect([401, 403]).toContain(asKioskCall.statusCode);

      // A child who works the till: their guardian, switched into them, is never staff.
      const teen = await insertTestUser(t.db);
      await addMembership(t.db, teen.id, f.org.id, 'staff', [...allClaims]);
      await addMembership(t.db, teen.id, f.org.id, 'customer');
      const guardian = await insertTestUser(t.db);
      await addMembership(t.db, guardian.id, f.org.id, 'customer');
      await linkChild(t.db, guardian.id, teen.id, f.org.id);
      const jar = (
        await logInAs(t.app, guardian.email!, {
          profileType: 'use-customer',
          profileOrgId: f.org.id,
        })
      ).jar;
      // Switching into a staff member's account is refused outright (act-for.ts) …
      await expect(switchInto(t.app, jar, teen.id)).rejects.toThrow(/403/);
      // … and so is asking for their staff view while switching.
      const asStaff = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          impersonate: teen.id,
          redirectTo: '/dashboard',
          profileType: 'use-org',
          profileOrgId: f.org.id,
        }).toString(),
      });
      expect(asStaff.statusCode).toBe(403);
      expect([401, 403]).toContain((await calls.create(jar, body)).statusCode);
    });

    it('point of sale taken away after the upload: the import cannot be started, and gives nothing', async () => {
      const a = await newOrg();
      const clerk = await staffOf(a.org.id, ['view-customers', 'manage-point-of-sale']);
      const ann = await customerOf(a.org.id);
      const pack = await product(a.org.id);
      const id = await uploaded(clerk.jar, creditsFile([[ann.email!, pack.name, 5]]));
      await t.db
        .update(memberships)
        .set({ claims: ['view-customers'] })
        .where(and(eq(memberships.userId, clerk.user.id), eq(memberships.orgId, a.org.id)));
      const started = await calls.start(clerk.jar, id);
      expect([403, 404]).toContain(started.statusCode);
      // Nor does a customers-only colleague see it (it lists customers' addresses).
      const colleague = await staffOf(a.org.id, ['view-customers']);
      expect((await calls.status(colleague.jar, id)).statusCode).toBe(404);
      await drainJobs(t.app);
      expect(await ledger({ productId: pack.id })).toEqual([]);
    });

    it('an admin impersonating a manager may import credits, and the admin at the keyboard is on record', async () => {
      const a = await newOrg();
      const ann = await customerOf(a.org.id);
      const pack = await product(a.org.id);
      const admin = await insertTestUser(t.db, { role: 'admin' });
      const adminJar = (await logInAs(t.app, admin.email!)).jar;
      const switched = await switchTo(t.app, adminJar, a.owner.id, a.org.id);
      expect(switched.statusCode, switched.body).toBe(303);
      const done = await calls.importFile(
        adminJar,
        'credits',
        creditsFile([[ann.email!, pack.name, 5]]),
      );
      expect(done.status).toBe('done');
      // Safe enough: the admin's switch into the owner is on record for this organisation (the
      // session-level audit), so the credits are not put on the owner alone — though the import's
      // record and the ledger rows name the owner only (see the report).
      const [job] = await t.db.select().from(importJobs).where(eq(importJobs.id, done.id));
      expect(job?.createdByUserId).toBe(a.owner.id);
      expect((await ledger({ productId: pack.id })).map((r) => r.createdByUserId)).toEqual([
        a.owner.id,
      ]);
      const audit = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.orgId, a.org.id), eq(auditLog.action, 'impersonate')));
      expect(audit.map((r) => [r.actorUserId, r.subjectUserId])).toEqual([[admin.id, a.owner.id]]);
    });
  });

  // ================================================================ export run ownership

  describe('export runs', () => {
    /** An organisation whose archive is many small chunks (random names do not compress). */
    async function bulkyOrg(people = 1500) {
      const a = await newOrg();
      const made = await t.db
        .insert(users)
        .values(
          Array.from({ length: people }, () => ({
            email: uniqueEmail('bulk'),
            firstName: randomUUID().replaceAll('-', ''),
            lastName: randomUUID().replaceAll('-', ''),
          })),
        )
        .returning({ id: users.id, email: users.email, firstName: users.firstName });
      await t.db.insert(rosterItems).values(
        made.map((u) => ({
          orgId: a.org.id,
          userId: u.id,
          firstName: u.firstName,
          lastName: randomUUID(),
          email: u.email,
          updatedAt: new Date(),
        })),
      );
      return a;
    }
    const small = { pageRows: 100, chunkBytes: 1024 };
    /** Polls the export's row until it ends (waking the queue now and then only, for PGlite). */
    async function ended(id: string) {
      for (let n = 0; ; n++) {
        if (n % 20 === 0) t.app.jobs.wake();
        const [row] = await t.db.select().from(exportJobs).where(eq(exportJobs.id, id));
        if (row && (row.status === 'done' || row.status === 'failed')) return row;
        if (n > 300) throw new Error(`export ${id} still ${row?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const chunksOf = (id: string) =>
      t.db
        .select({ seq: exportChunks.seq, body: exportChunks.body })
        .from(exportChunks)
        .where(eq(exportChunks.exportId, id));
    const exportRow = async (id: string) =>
      (await t.db.select().from(exportJobs).where(eq(exportJobs.id, id)))[0]!;
    const newExport = (a: { org: { id: string }; owner: { id: string } }, createdAt?: Date) =>
      t.db
        .insert(exportJobs)
        .values({
          orgId: a.org.id,
          createdByUserId: a.owner.id,
          status: 'queued',
          expiresAt: new Date(Date.now() + 86_400_000),
          ...(createdAt ? { createdAt } : {}),
        })
        .returning()
        .then((rows) => rows[0]!);

    it('a run that errors after being taken over touches nothing of the newer run', async () => {
      const a = await newOrg();
      const row = await newExport(a);
      const older = (await t.db.transaction((tx) => exportsRepo.takeOverExport(tx, row.id)))!;
      expect(await exportsRepo.insertOwnChunk(t.db, row.id, older.runId, 0, Buffer.from('old')));
      const newer = (await t.db.transaction((tx) => exportsRepo.takeOverExport(tx, row.id)))!;
      expect(await chunksOf(row.id)).toEqual([]);
      expect(
        await exportsRepo.insertOwnChunk(t.db, row.id, newer.runId, 0, Buffer.from('new')),
      ).toBe(true);
      // The older run writes, finishes or fails: each matches nothing.
      expect(
        await exportsRepo.insertOwnChunk(t.db, row.id, older.runId, 1, Buffer.from('old')),
      ).toBe(false);
      expect(await exportsRepo.updateOwnExport(t.db, row.id, older.runId, { rowsDone: 9 })).toBe(
        false,
      );
      await exportsRepo.failExport(t.db, row.id, older.runId, 'old run failed');
      expect(
        await exportsRepo.finishExport(t.db, row.id, older.runId, { bytes: 3, rowsDone: 0 }, 5),
      ).toBe(false);
      expect(await exportRow(row.id)).toMatchObject({ status: 'running', runId: newer.runId });
      expect((await chunksOf(row.id)).map((c) => Buffer.from(c.body).toString())).toEqual(['new']);
      expect(
        await exportsRepo.finishExport(t.db, row.id, newer.runId, { bytes: 3, rowsDone: 0 }, 5),
      ).toBe(true);
      // The job's final failure handler after the export is done changes nothing.
      await exportsRepo.failExport(t.db, row.id, null, 'job failed for good');
      expect(await exportRow(row.id)).toMatchObject({ status: 'done', bytes: 3 });
    });

    it('three runs of one export at once leave one whole archive', async () => {
      const a = await bulkyOrg(400);
      const row = await newExport(a);
      const deps = { db: t.db, log: silentLog, sizes: small };
      const first = runExport(deps, row.id);
      await waitFor('a chunk', async () => (await chunksOf(row.id)).length > 0);
      const second = runExport(deps, row.id);
      await waitFor('a chunk of the second', async () => (await chunksOf(row.id)).length > 2);
      await Promise.all([first, second, runExport(deps, row.id)]);
      const after = await exportRow(row.id);
      expect(after.status).toBe('done');
      const chunks = (await chunksOf(row.id)).sort((x, y) => x.seq - y.seq);
      const whole = Buffer.concat(chunks.map((c) => Buffer.from(c.body)));
      expect(whole.length).toBe(after.bytes);
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      const files = unzipSync(new Uint8Array(whole));
      expect(strFromU8(files['people.csv']!).trimEnd().split('\r\n')).toHaveLength(401);
    });

    it('a create racing the job that takes a stale queued export over: one of them wins, never both', async () => {
      for (let round = 0; round < 6; round++) {
        const a = await newOrg();
        const row = await newExport(a);
        await t.db
          .update(exportJobs)
          .set({ updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
          .where(eq(exportJobs.id, row.id));
        const [created] = await Promise.all([
          t.app.inject({ method: 'POST', url: '/api/exports', headers: a.jar.headers() }),
          runExport({ db: t.db, log: silentLog }, row.id),
        ]);
        const old = await exportRow(row.id);
        if (created.statusCode === 201) {
          expect(old.status).toBe('failed');
          expect(await chunksOf(row.id)).toEqual([]);
          expect((await ended(created.json<{ id: string }>().id)).status).toBe('done');
        } else {
          expect(created.statusCode).toBe(409);
          expect(old.status).toBe('done');
        }
      }
    });

    it.runIf(kind === 'postgres')(
      'a live run said stale by the next create stops writing: the failed export stays failed and empty, the new one is whole',
      async () => {
        const a = await bulkyOrg(1500);
        const row = await newExport(a);
        const first = runExport({ db: t.db, log: silentLog, sizes: small }, row.id);
        await waitFor('a chunk', async () => (await chunksOf(row.id)).length > 0);
        // The run is held mid-archive (its next page waits for the customer list's lock).
        const lock = await holdLock(t.db, sql`lock table roster_items in access exclusive mode`);
        await waitFor('the run to wait', async () => {
          const [n] = rowsOf<{ n: number }>(
            await t.db.execute(sql`
              select count(*)::int as n from pg_locks
              where locktype = 'relation' and not granted
                and database = (select oid from pg_database where datname = current_database())`),
          );
          return (n?.n ?? 0) > 0;
        });
        await t.db
          .update(exportJobs)
          .set({ updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
          .where(eq(exportJobs.id, row.id));
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/exports',
          headers: a.jar.headers(),
        });
        expect(created.statusCode, created.body).toBe(201);
        await lock.release();
        await first;
        const old = await exportRow(row.id);
        expect(old.status).toBe('failed');
        expect(await chunksOf(row.id)).toEqual([]);
        const newId = created.json<{ id: string }>().id;
        expect((await ended(newId)).status).toBe('done');
        const download = await t.app.inject({
          method: 'GET',
          url: `/api/exports/${newId}/download`,
          headers: a.jar.headers(),
        });
        expect(download.statusCode).toBe(200);
        const files = unzipSync(new Uint8Array(download.rawPayload));
        expect(strFromU8(files['people.csv']!).trimEnd().split('\r\n')).toHaveLength(1501);
      },
    );

    it('an archive pruned (a sixth one done) while it is being downloaded: the download errors, never ends short as if whole', async () => {
      const a = await bulkyOrg(1500);
      const oldest = await newExport(a, new Date(Date.now() - 10 * 60_000));
      await runExport({ db: t.db, log: silentLog, sizes: small }, oldest.id);
      const whole = await exportRow(oldest.id);
      expect(whole.status).toBe('done');
      expect((await chunksOf(oldest.id)).length).toBeGreaterThan(20);
      // Four more archives done since (records and a chunk each, as runs leave them).
      for (let i = 0; i < 4; i++) {
        const row = await newExport(a, new Date(Date.now() - (9 - i) * 60_000));
        await t.db
          .update(exportJobs)
          .set({ status: 'done', bytes: 3, finishedAt: new Date() })
          .where(eq(exportJobs.id, row.id));
        await t.db
          .insert(exportChunks)
          .values({ exportId: row.id, seq: 0, body: Buffer.from('PK!') });
      }
      const exporter = {
        orgId: a.org.id,
        userId: a.owner.id,
        impersonatorUserId: null,
        switchedFrom: null,
      };
      const download = await downloadExport(t.db, exporter, oldest.id);
      const reader = download.stream[Symbol.asyncIterator]();
      let received = 0;
      let errored = false;
      const first = await reader.next();
      received += (first.value as Buffer).length;
      // The sixth archive is done meanwhile: the oldest is pruned.
      const sixth = await newExport(a);
      await runExport({ db: t.db, log: silentLog, sizes: small }, sixth.id);
      // Expired at once (no new download), its chunks kept for the grace hour…
      expect((await chunksOf(oldest.id)).length).toBeGreaterThan(0);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/exports/${oldest.id}/download`,
            headers: a.jar.headers(),
          })
        ).statusCode,
      ).toBe(409);
      // …and then pruned while this download is still reading.
      await pruneExpiredArchives(t.db, Date.now() + exportsRepo.ARCHIVE_GRACE_MS + 1000);
      expect(await chunksOf(oldest.id)).toEqual([]);
      try {
        for (;;) {
          const next = await reader.next();
          if (next.done) break;
          received += (next.value as Buffer).length;
        }
      } catch {
        errored = true;
      }
      // Safe: the whole archive arrived, or the stream failed (so the response is cut and
      // the browser says the download failed) — not a short archive that ends as if whole.
      expect(errored || received === download.bytes, `${received} of ${download.bytes} bytes`).toBe(
        true,
      );
    });

    it('audit: 20 creates at once leave one create row; refused, expired and foreign downloads leave none', async () => {
      const a = await newOrg();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.app.inject({ method: 'POST', url: '/api/exports', headers: a.jar.headers() }),
        ),
      );
      const id = answers.find((r) => r.statusCode === 201)!.json<{ id: string }>().id;
      const auditRows = () =>
        t.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.orgId, a.org.id), sql`${auditLog.action} like 'export-%'`));
      expect((await auditRows()).map((r) => r.action)).toEqual(['export-create']);
      // Not ready yet (or ready): another organisation's owner and a staff member without the
      // claim are refused, and leave nothing on record as downloads.
      const b = await newOrg();
      const noClaim = await staffOf(a.org.id, ['view-customers']);
      for (const jar of [b.jar, noClaim.jar]) {
        const answer = await t.app.inject({
          method: 'GET',
          url: `/api/exports/${id}/download`,
          headers: jar.headers(),
        });
        expect([403, 404]).toContain(answer.statusCode);
      }
      await ended(id);
      expect((await auditRows()).map((r) => r.action)).toEqual(['export-create']);
      // Expired: refused, not audited as a download.
      await t.db
        .update(exportJobs)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(exportJobs.id, id));
      const expired = await t.app.inject({
        method: 'GET',
        url: `/api/exports/${id}/download`,
        headers: a.jar.headers(),
      });
      expect(expired.statusCode).toBe(409);
      expect((await auditRows()).map((r) => r.action)).toEqual(['export-create']);
      expect(
        await t.db
          .select()
          .from(exportJobs)
          .where(inArray(exportJobs.id, [id])),
      ).toHaveLength(1);
    });
  });
});
