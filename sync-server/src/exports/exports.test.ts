import { and, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { auditLog, exportChunks, exportJobs, products, users } from '@platform/schema/db';
import { exportTexts, type ExportStatus } from '@platform/schema/imports/export.zod';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { seedFamilies } from '../families/families.fixtures.ts';
import { pruneExpiredData } from '../maintenance/prune.service.ts';
import {
  addMembership,
  insertTestUser,
  logInAs,
  newOrgWithOwner,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { waitFor } from '../testing/job-fixtures.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { ARCHIVE_GRACE_MS, insertExport } from './exports.repository.ts';
import { abandonExport, runExport } from './exports.service.ts';
import { personalDataLimit } from './personal-data.service.ts';

describe.each(testDatabaseKinds)('exports on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await seedFamilies(t.app, t.db);
  }, 60_000);
  afterAll(() => t.close());

  const get = (jar: CookieJar, url: string) =>
    t.app.inject({ method: 'GET', url, headers: jar.headers() });

  async function exportOf(
    jar: CookieJar,
  ): Promise<{ status: ExportStatus; files: Record<string, string> }> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: jar.headers(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<ExportStatus>();
    const status = await finished(jar, id);
    expect(status).toMatchObject({ status: 'done', downloadable: true });
    const download = await get(jar, `/api/exports/${id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="export-/);
    const entries = unzipSync(new Uint8Array(download.rawPayload));
    return {
      status,
      files: Object.fromEntries(
        Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]),
      ),
    };
  }

  /**
   * The export, once its job has ended. Polled rather than drained: on PGlite, pg-boss's row of
   * this job has been seen back in 'active' after its completion was acknowledged (affected: 1),
   * which drainJobs would wait on for ever — recorded in the issue's note, not explained yet.
   */
  const finished = (jar: CookieJar, id: string) => {
    // Woken every ~2 s, not every poll: on PGlite each wake queues fetches on its one connection.
    let lastWake = 0;
    return waitFor('the export to end', async () => {
      if (Date.now() - lastWake > 2000) {
        lastWake = Date.now();
        t.app.jobs.wake();
      }
      const status = (await get(jar, `/api/exports/${id}`)).json<ExportStatus>();
      return status.status === 'done' || status.status === 'failed' ? status : undefined;
    });
  };

  const importInto = (jar: CookieJar, kind: string, text: string) =>
    importCalls(t.app).importFile(jar, kind, text, 1024 * 1024);

  /** A new organisation and its owner, signed in. */
  const newOrg = () => newOrgWithOwner(t.app, t.db);

  it('an export imports into an empty organisation and exports again as the same files', async () => {
    const a = await newOrg();
    const people = [
      `Ann,Lee,${uniqueEmail('rt-ann')},+1 201 555 0100`,
      `"=Bo, Jr.",Kim,${uniqueEmail('rt-bo')},`,
      `Cy,"O'Neil ""Cy""",${uniqueEmail('rt-cy')},`,
    ];
    expect((await importInto(a.jar, 'customers', people.join('\n'))).status).toBe('done');
    const [ann, bo] = people.map((line) => line.match(/,([^,]+@example\.test)/)![1]!.toLowerCase());
    expect(
      (await importInto(a.jar, 'tags', `${ann},VIP\n${ann},Morning crew\n${bo},@home`)).status,
    ).toBe('done');
    // Credits: a pack with one punch-card group, in both organisations by the same name.
    const productIn = (orgId: string, values: Omit<typeof products.$inferInsert, 'orgId'>) =>
      t.db.insert(products).values({ orgId, ...values });
    const pack = (orgId: string) =>
      productIn(orgId, {
        name: 'Ten class pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 9_000,
        punchCardConfiguration: { groups: [{ id: randomUUID(), name: 'Classes', credits: 10 }] },
      });
    await pack(a.org.id);
    expect(
      (await importInto(a.jar, 'credits', `${ann},Ten class pack,7\n${bo},ten class pack,2`))
        .status,
    ).toBe('done');
    // Contact lists: made, and filled by the import.
    const makeList = async (jar: CookieJar, name: string) =>
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/contact-lists',
            headers: jar.headers(),
            payload: { name },
          })
        ).statusCode,
      ).toBe(201);
    await makeList(a.jar, 'Newsletter');
    await makeList(a.jar, 'Morning crew');
    expect(
      (
        await importInto(
          a.jar,
          'contact-lists',
          `${ann},newsletter\n${bo},Newsletter\n${ann},Morning crew`,
        )
      ).result,
    ).toMatchObject({ added: 3, unchanged: 0 });
    // Memberships paid outside the platform (one with an agreed price and an end), and a pack
    // recorded as paid outside.
    const monthly = (orgId: string) =>
      productIn(orgId, {
        name: 'Monthly unlimited',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 10_000,
      });
    await monthly(a.org.id);
    const external = 'start-customer-subscription-for-external-payment';
    expect(
      (
        await importInto(
          a.jar,
          'assignments',
          [
            `${ann},Monthly unlimited,${external},2026-01-10,,percentage,15`,
            `${bo},Monthly unlimited,${external},2026-02-01,2036-02-01`,
            `${bo},Ten class pack,${external},,,fixed_amount,10`,
          ].join('\n'),
        )
      ).result,
    ).toMatchObject({ subscribed: 2, recorded: 1 });
    const first = await exportOf(a.jar);
    expect(Object.keys(first.files).sort()).toEqual(
      [
        'README.txt',
        'customers.csv',
        'tags.csv',
        'contact-list-members.csv',
        'contact-lists.csv',
        'credits.csv',
        'product-assignments.csv',
        'people.csv',
        'customer-notes.csv',
        'customer-metrics.csv',
        'families.csv',
        'products.csv',
        'coupons.csv',
        'subscriptions.csv',
        'invoices.csv',
        'time-entries.csv',
        'bookings.csv',
        'branding.csv',
        'everything.json',
      ].sort(),
    );
    expect(first.files['customers.csv']!.split('\r\n')[0]).toBe(
      'firstName,lastName,email,phoneNumber',
    );
    // A formula-looking cell is written as text for spreadsheets.
    expect(first.files['customers.csv']).toContain(`"'=Bo, Jr."`);
    const json = JSON.parse(first.files['everything.json']!) as Record<string, unknown[]>;
    expect(json.customers).toHaveLength(3);
    expect(json.tags).toHaveLength(3);

    const b = await newOrg();
    expect(
      (await importInto(b.jar, 'customers', first.files['customers.csv']!)).result,
    ).toMatchObject({
      rows: 3,
      invited: 3,
    });
    expect((await importInto(b.jar, 'tags', first.files['tags.csv']!)).status).toBe('done');
    await pack(b.org.id);
    await makeList(b.jar, 'Newsletter');
    await makeList(b.jar, 'Morning crew');
    const members = await importInto(
      b.jar,
      'contact-lists',
      first.files['contact-list-members.csv']!,
    );
    expect(members.result).toMatchObject({ added: 3 });
    // The same file again adds nothing.
    expect(
      (await importInto(b.jar, 'contact-lists', first.files['contact-list-members.csv']!)).result,
    ).toMatchObject({ added: 0, unchanged: 3 });
    expect(first.files['credits.csv']!.trimEnd().split('\r\n')).toHaveLength(3);
    expect((await importInto(b.jar, 'credits', first.files['credits.csv']!)).status).toBe('done');
    await monthly(b.org.id);
    expect(first.files['product-assignments.csv']!.trimEnd().split('\r\n')).toEqual([
      'customerEmail,productName,action,startDate,endDate,discountType,discountAmount',
      `${ann},Monthly unlimited,${external},2026-01-10,,fixed_amount,15.00`,
      `${bo},Monthly unlimited,${external},2026-02-01,2036-02-01,,`,
      `${bo},Ten class pack,${external},,,fixed_amount,10.00`,
    ]);
    expect(
      (await importInto(b.jar, 'assignments', first.files['product-assignments.csv']!)).result,
    ).toMatchObject({ subscribed: 2, recorded: 1, unchanged: 0 });
    const second = await exportOf(b.jar);
    expect(second.files['product-assignments.csv']).toBe(first.files['product-assignments.csv']);
    expect(second.files['customers.csv']).toBe(first.files['customers.csv']);
    expect(second.files['tags.csv']).toBe(first.files['tags.csv']);
    expect(second.files['credits.csv']).toBe(first.files['credits.csv']);
    expect(second.files['contact-list-members.csv']).toBe(first.files['contact-list-members.csv']);
    expect(first.files['contact-list-members.csv']!.trimEnd().split('\r\n')).toHaveLength(4);
  });

  it('holds no secrets: no password hashes, invitation tokens or card details', async () => {
    const a = await newOrg();
    const email = uniqueEmail('secret');
    await importInto(a.jar, 'customers', `Sam,Secret,${email}`);
    const { files } = await exportOf(a.jar);
    const everything = Object.entries(files)
      .filter(([name]) => name !== 'README.txt')
      .map(([, text]) => text)
      .join('\n');
    const [owner] = await t.db.select().from(users).where(eq(users.id, a.owner.id));
    expect(owner!.passwordHash).toBeTruthy();
    expect(everything).not.toContain(owner!.passwordHash!);
    expect(everything).not.toMatch(/password|token_?hash|tokenHash|\$argon2/i);
  });

  it('is for staff with manage-org-settings of that organisation only; making and downloading are audited', async () => {
    const a = await newOrg();
    const { status } = await exportOf(a.jar);
    for (const jar of [f.manager.jar]) {
      expect((await get(jar, `/api/exports/${status.id}`)).statusCode).toBe(404);
      expect((await get(jar, `/api/exports/${status.id}/download`)).statusCode).toBe(404);
      expect(
        (await get(jar, '/api/exports'))
          .json<{ exports: ExportStatus[] }>()
          .exports.map((e) => e.id),
      ).not.toContain(status.id);
    }
    const clerk = await insertTestUser(t.db);
    await addMembership(
      t.db,
      clerk.id,
      a.org.id,
      'staff',
      allClaims.filter((c) => c !== 'manage-org-settings'),
    );
    const clerkJar = (
      await logInAs(t.app, clerk.email!, { profileType: 'use-org', profileOrgId: a.org.id })
    ).jar;
    for (const jar of [clerkJar, f.parent.jar]) {
      expect((await get(jar, `/api/exports/${status.id}/download`)).statusCode).toBe(403);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/exports', headers: jar.headers() }))
          .statusCode,
      ).toBe(403);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/exports/${status.id}/download` })).statusCode,
    ).toBe(401);
    const audit = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.orgId, a.org.id), eq(auditLog.actorUserId, a.owner.id)));
    expect(audit.map((r) => r.action).sort()).toEqual(['export-create', 'export-download']);
  });

  it('one export at a time; after 7 days it cannot be downloaded and the prune removes its archive', async () => {
    const a = await newOrg();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: a.jar.headers(),
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: a.jar.headers(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: exportTexts.busy });
    const { id } = created.json<ExportStatus>();
    await finished(a.jar, id);
    await t.db
      .update(exportJobs)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(exportJobs.id, id));
    const expired = await get(a.jar, `/api/exports/${id}/download`);
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ message: exportTexts.expired });
    expect((await get(a.jar, `/api/exports/${id}`)).json()).toMatchObject({ downloadable: false });
    expect(
      (await t.db.select().from(exportChunks).where(eq(exportChunks.exportId, id))).length,
    ).toBeGreaterThan(0);
    // Kept for the grace hour (a download under way reads to its end), then pruned.
    await pruneExpiredData(t.db, { auditRetentionDays: 365 });
    expect(
      (await t.db.select().from(exportChunks).where(eq(exportChunks.exportId, id))).length,
    ).toBeGreaterThan(0);
    await t.db
      .update(exportJobs)
      .set({ expiresAt: new Date(Date.now() - ARCHIVE_GRACE_MS - 1000) })
      .where(eq(exportJobs.id, id));
    await pruneExpiredData(t.db, { auditRetentionDays: 365 });
    expect(await t.db.select().from(exportChunks).where(eq(exportChunks.exportId, id))).toEqual([]);
  });

  it('a customer downloads their own data: profile, family, purchases and bookings, nobody else’s', async () => {
    const mine = await get(f.parent.jar, '/api/me/data-export');
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-disposition']).toBe('attachment; filename="my-data.json"');
    const data = mine.json<{
      profile: { id: string; email: string };
      family: Array<{ relation: string; firstName: string }>;
      purchases: Record<string, unknown[]>;
      bookings: unknown[];
    }>();
    expect(data.profile).toMatchObject({ id: f.parent.id, email: f.parent.email });
    expect(data.family).toEqual([
      expect.objectContaining({ relation: 'child', firstName: 'Casey' }),
    ]);
    expect(Object.keys(data.purchases).sort()).toEqual([
      'bookingPayments',
      'credits',
      'invoices',
      'subscriptions',
    ]);
    expect(Array.isArray(data.bookings)).toBe(true);
    expect(mine.body).not.toMatch(/password|\$argon2/i);
    expect(mine.body).not.toContain(f.otherParent.email!);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/data-export' })).statusCode).toBe(
      401,
    );
  });

  it('own data: each download is audited with who was at the keyboard, and a few an hour at most', async () => {
    const person = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, person.email!);
    for (let i = 0; i < personalDataLimit.limit; i++)
      expect((await get(jar, '/api/me/data-export')).statusCode).toBe(200);
    const refused = await get(jar, '/api/me/data-export');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.subjectUserId, person.id), eq(auditLog.action, 'personal-data-export')),
      );
    expect(audit).toHaveLength(personalDataLimit.limit);
    expect(audit[0]).toMatchObject({ actorUserId: person.id, detail: { switchedFrom: null } });
  });

  it('a retry that takes an export over part-way (a lost lease) leaves one whole archive: the first run stops writing', async () => {
    const a = await newOrg();
    const rows = Array.from(
      { length: 1500 },
      (_, i) => `Person${i},Row,${uniqueEmail(`take-${i}`)}`,
    );
    expect((await importInto(a.jar, 'customers', rows.join('\n'))).status).toBe('done');
    const row = await insertExport(t.db, {
      orgId: a.org.id,
      createdByUserId: a.owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    // Small pages and chunks: the first run is still writing when the second one starts.
    const deps = {
      db: t.db,
      log: { error: () => {} },
      sizes: { pageRows: 100, chunkBytes: 4096 },
      // On PostgreSQL through the cursor the job uses: the first run's is let go when it stops.
      pagesOf: t.app.database.pagesOf,
    };
    const first = runExport(deps, row.id);
    await waitFor('the first run to have written a chunk', async () =>
      (await t.db.select().from(exportChunks).where(eq(exportChunks.exportId, row.id))).length > 1
        ? true
        : undefined,
    );
    await Promise.all([first, runExport(deps, row.id)]);
    const [after] = await t.db.select().from(exportJobs).where(eq(exportJobs.id, row.id));
    const chunks = await t.db
      .select({ seq: exportChunks.seq, body: exportChunks.body })
      .from(exportChunks)
      .where(eq(exportChunks.exportId, row.id))
      .orderBy(exportChunks.seq);
    expect(after!.status).toBe('done');
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    const archive = Buffer.concat(chunks.map((c) => Buffer.from(c.body)));
    expect(archive.length).toBe(after!.bytes);
    const files = unzipSync(new Uint8Array(archive));
    expect(strFromU8(files['customers.csv']!).trimEnd().split('\r\n')).toHaveLength(1501);
  });

  it('an export whose job failed for good is said failed, and the next export can be made', async () => {
    const a = await newOrg();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: a.jar.headers(),
    });
    const { id } = created.json<ExportStatus>();
    // What the queue calls when every retry is used (job-handlers: org-export's failure handler).
    await abandonExport(t.db, id);
    expect((await get(a.jar, `/api/exports/${id}`)).json()).toMatchObject({
      status: 'failed',
      failureMessage: exportTexts.failed,
      downloadable: false,
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: a.jar.headers(),
    });
    expect(again.statusCode).toBe(201);
    // The abandoned export's job, if it still runs, finds it ended and writes nothing.
    await runExport({ db: t.db, log: { error: () => {} } }, id);
    expect(await t.db.select().from(exportChunks).where(eq(exportChunks.exportId, id))).toEqual([]);
    await finished(a.jar, again.json<ExportStatus>().id);
  });
});
