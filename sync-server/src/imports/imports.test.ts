import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  crmInvitations,
  memberships,
  products,
  punchCardCredits,
  rosterItems,
  users,
} from '@platform/schema/db';
import { csvMessages } from '@platform/schema/imports/csv';
import { importTexts, type ImportStatus } from '@platform/schema/imports/import.zod';
import { seedFamilies } from '../families/families.fixtures.ts';
import { addMembership, insertTestUser, logInAs, uniqueEmail } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { failImport } from './imports.service.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('CSV imports on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await seedFamilies(t.app, t.db);
  }, 60_000);
  afterAll(() => t.close());

  const calls = () => importCalls(t.app);
  const create = (jar: CookieJar, body: Record<string, unknown>) => calls().create(jar, body);
  const putChunk = (jar: CookieJar, id: string, seq: number, bytes: Buffer) =>
    calls().putChunk(jar, id, seq, bytes);
  const start = (jar: CookieJar, id: string) => calls().start(jar, id);
  const status = (jar: CookieJar, id: string) => calls().status(jar, id);
  const importFile = (jar: CookieJar, kind: string, text: string | Buffer, chunk?: number) =>
    calls().importFile(jar, kind, text, chunk);

  const rosterCount = async (orgId: string) =>
    (await t.db.select({ n: count() }).from(rosterItems).where(eq(rosterItems.orgId, orgId)))[0]!.n;

  it('imports new customers and invites an address that has an account, without renaming it; the same file again changes nothing', async () => {
    const org = f.org.id;
    const known = await insertTestUser(t.db, { firstName: 'Real', lastName: 'Owner' });
    const [a, b] = [uniqueEmail('ann'), uniqueEmail('bo')];
    const file = [
      'firstName,lastName,email,phoneNumber',
      `Ann,Lee,${a.toUpperCase()},(201) 555-0100`,
      `"Bo, Jr.",Kim,${b},`,
      `Typed,Name,${known.email}`,
    ].join('\r\n');
    const before = await rosterCount(org);
    const done = await importFile(f.manager.jar, 'customers', file, 7);
    expect(done).toMatchObject({
      status: 'done',
      rowsTotal: 3,
      rowsDone: 3,
      result: { rows: 3, created: 2, invited: 1, unchanged: 0 },
    });
    expect(await rosterCount(org)).toBe(before + 3);
    const [ann] = await t.db.select().from(users).where(eq(users.email, a));
    expect(ann).toMatchObject({ firstName: 'Ann', lastName: 'Lee', passwordHash: null });
    expect(ann!.createdByOrgId).toBe(org);
    const [annItem] = await t.db
      .select()
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, org), eq(rosterItems.userId, ann!.id)));
    expect(annItem).toMatchObject({
      phone: '+12015550100',
      invitationPending: true,
      deleted: false,
    });
    const [bo] = await t.db.select().from(users).where(eq(users.email, b));
    expect(bo!.firstName).toBe('Bo, Jr.');
    // The stranger's account keeps its names; the list says what the file typed; no membership.
    const [owner] = await t.db.select().from(users).where(eq(users.id, known.id));
    expect(owner).toMatchObject({ firstName: 'Real', lastName: 'Owner' });
    const [typed] = await t.db
      .select()
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, org), eq(rosterItems.userId, known.id)));
    expect(typed).toMatchObject({ firstName: 'Typed', lastName: 'Name', invitationPending: true });
    expect(
      await t.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.orgId, org), eq(memberships.userId, known.id))),
    ).toEqual([]);
    const invitations = await t.db
      .select({ n: count() })
      .from(crmInvitations)
      .where(eq(crmInvitations.orgId, org));

    const again = await importFile(f.manager.jar, 'customers', file);
    expect(again.result).toEqual({ rows: 3, created: 0, invited: 0, unchanged: 3 });
    expect(await rosterCount(org)).toBe(before + 3);
    expect(
      await t.db.select({ n: count() }).from(crmInvitations).where(eq(crmInvitations.orgId, org)),
    ).toEqual(invitations);
  });

  it("credits: each group of the product gets them, on the ledger in the importer's name; the same file again gives nothing", async () => {
    const groups = [randomUUID(), randomUUID()];
    const [pack, plain] = await t.db
      .insert(products)
      .values([
        {
          orgId: f.org.id,
          name: `Ten pack ${groups[0]!.slice(0, 6)}`,
          type: 'one-time' as const,
          schedule: 'one-time' as const,
          priceMinor: 9_000,
          punchCardConfiguration: {
            groups: [
              { id: groups[0]!, name: 'Classes', credits: 10 },
              { id: groups[1]!, name: 'Open gym', credits: 10 },
            ],
          },
        },
        {
          orgId: f.org.id,
          name: `Drop-in ${groups[0]!.slice(0, 6)}`,
          type: 'one-time' as const,
          schedule: 'one-time' as const,
          priceMinor: 1_500,
        },
      ])
      .returning();
    const [a, b] = [uniqueEmail('credit-a'), uniqueEmail('credit-b')];
    expect((await importFile(f.manager.jar, 'customers', `Ann,Lee,${a}\nBo,Kim,${b}`)).status).toBe(
      'done',
    );
    const file = `customerEmail,productName,credits\n${a},${pack!.name.toUpperCase()},7\n${b},${pack!.name},3`;
    const refused = await importFile(f.manager.jar, 'credits', `${file}\n${a},${plain!.name},2`);
    expect(refused.status).toBe('refused');
    expect(refused.rowErrors).toEqual([
      { row: 4, message: `Product ${plain!.name} has no punch card`, cells: [a, plain!.name, '2'] },
    ]);
    const done = await importFile(f.manager.jar, 'credits', file);
    expect(done).toMatchObject({ status: 'done', result: { rows: 2, credited: 2, unchanged: 0 } });
    const ledger = async () =>
      (
        await t.db
          .select({
            email: rosterItems.email,
            groupId: punchCardCredits.groupId,
            delta: punchCardCredits.delta,
            reason: punchCardCredits.reason,
            by: punchCardCredits.createdByUserId,
          })
          .from(punchCardCredits)
          .innerJoin(
            rosterItems,
            and(
              eq(rosterItems.orgId, punchCardCredits.orgId),
              eq(rosterItems.userId, punchCardCredits.customerUserId),
            ),
          )
          .where(eq(punchCardCredits.productId, pack!.id))
      )
        .map(
          (r) =>
            `${r.email} ${r.groupId === groups[0] ? 'Classes' : 'Open gym'} ${r.delta} ${r.reason} ${r.by === f.manager.id}`,
        )
        .sort();
    expect(await ledger()).toEqual(
      [
        `${a} Classes 7 import true`,
        `${a} Open gym 7 import true`,
        `${b} Classes 3 import true`,
        `${b} Open gym 3 import true`,
      ].sort(),
    );
    const again = await importFile(f.manager.jar, 'credits', file);
    expect(again.result).toEqual({ rows: 2, credited: 0, unchanged: 2 });
    expect(await ledger()).toHaveLength(4);
  });

  it('refuses a file with bad rows and writes nothing: each row with its number, message and data', async () => {
    const good = uniqueEmail('good');
    const before = await rosterCount(f.org.id);
    const refused = await importFile(
      f.manager.jar,
      'customers',
      `Ann,Lee,${good}\n,Kim,kim@example.com\nCy,Ray,not-an-email\nDi,Fox,${good.toUpperCase()}\n`,
    );
    expect(refused.status).toBe('refused');
    expect(refused.rowErrors).toEqual([
      { row: 2, message: 'First name is required', cells: ['', 'Kim', 'kim@example.com'] },
      {
        row: 3,
        message: 'Email not-an-email is not a valid email address',
        cells: ['Cy', 'Ray', 'not-an-email'],
      },
      {
        row: 4,
        message: `Email ${good} is already on row 1`,
        cells: ['Di', 'Fox', good.toUpperCase()],
      },
    ]);
    expect(await rosterCount(f.org.id)).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, good))).toEqual([]);
  });

  it('refuses text that is not UTF-8, with the words to fix it', async () => {
    const latin1 = Buffer.from('Zoë,Müller,zoe@example.com\n', 'latin1');
    const refused = await importFile(f.manager.jar, 'customers', latin1);
    expect(refused).toMatchObject({ status: 'refused', failureMessage: csvMessages.notUtf8 });
  });

  it('a failure half-way through leaves nothing behind', async () => {
    // A trigger makes the 7,001st roster item fail: the first batch of 5,000 was written.
    const orgEmails = Array.from({ length: 8000 }, (_, i) => `half-${kind}-${i}@example.test`);
    const file = orgEmails
      .map((email, i) => `First${i},${i === 7000 ? 'Explodes' : `Last${i}`},${email}`)
      .join('\n');
    await t.database.executeSql(`
      create or replace function explode_on_import() returns trigger language plpgsql as $$
      begin
        if new.last_name = 'Explodes' then raise exception 'injected failure'; end if;
        return new;
      end $$;
      create trigger explode_on_import before insert on roster_items
        for each row execute function explode_on_import();`);
    const before = await rosterCount(f.org.id);
    const usersBefore = (await t.db.select({ n: count() }).from(users))[0]!.n;
    try {
      const failed = await importFile(f.manager.jar, 'customers', file, 64 * 1024);
      expect(failed).toMatchObject({ status: 'failed', failureMessage: importTexts.failed });
    } finally {
      await t.database.executeSql('drop trigger explode_on_import on roster_items');
    }
    expect(await rosterCount(f.org.id)).toBe(before);
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBe(usersBefore);
  }, 120_000);

  it('an import that ended stays as it ended: a late run failing (its lease lost) never undoes done', async () => {
    const done = await importFile(f.manager.jar, 'customers', `Lia,Late,${uniqueEmail('late')}`);
    expect(done.status).toBe('done');
    await failImport(t.db, done.id);
    expect((await status(f.manager.jar, done.id)).json()).toMatchObject({
      status: 'done',
      result: { created: 1 },
    });
  });

  it('adds tags in the organisation’s spelling, never twice; a second run changes nothing', async () => {
    const [a, b] = [uniqueEmail('tag-a'), uniqueEmail('tag-b')];
    await importFile(f.manager.jar, 'customers', `Ann,Tag,${a}\nBo,Tag,${b}`);
    const first = await importFile(
      f.manager.jar,
      'tags',
      `customerEmail,tagName\n${a},VIP\n${a},  Morning   crew \n${b},vip\n${a},vip`,
    );
    expect(first).toMatchObject({ status: 'done', result: { rows: 4, tagged: 2, unchanged: 0 } });
    const tagsOf = async (email: string) =>
      (await t.db.select().from(rosterItems).where(eq(rosterItems.email, email)))[0]!.tags;
    expect(await tagsOf(a)).toEqual(['VIP', 'Morning crew']);
    expect(await tagsOf(b)).toEqual(['VIP']);
    const second = await importFile(f.manager.jar, 'tags', `${a},vip\n${b},VIP`);
    expect(second.result).toEqual({ rows: 2, tagged: 0, unchanged: 2 });
    const refused = await importFile(f.manager.jar, 'tags', `nobody@example.test,VIP\n${a},a,b`);
    expect(refused.rowErrors.map((e) => [e.row, e.message])).toEqual([
      [1, 'Email nobody@example.test is not in the valid emails list'],
    ]);
  });

  it('takes the file in order only, never more than it said, and starts only once it all arrived', async () => {
    const bytes = Buffer.from(`Ann,Lee,${uniqueEmail('order')}\n`);
    const { id } = (
      await create(f.manager.jar, {
        kind: 'customers',
        fileName: 'a.csv',
        totalBytes: bytes.length,
      })
    ).json<{ id: string }>();
    expect((await putChunk(f.manager.jar, id, 1, bytes)).json()).toMatchObject({
      message: importTexts.chunkOutOfOrder,
    });
    expect((await start(f.manager.jar, id)).statusCode).toBe(409);
    expect((await putChunk(f.manager.jar, id, 0, bytes.subarray(0, 5))).statusCode).toBe(200);
    // The same chunk again (its answer was lost) replaces itself.
    expect((await putChunk(f.manager.jar, id, 0, bytes.subarray(0, 5))).json()).toEqual({
      receivedBytes: 5,
    });
    expect((await putChunk(f.manager.jar, id, 1, Buffer.concat([bytes, bytes]))).statusCode).toBe(
      400,
    );
    expect((await putChunk(f.manager.jar, id, 1, bytes.subarray(5))).statusCode).toBe(200);
    expect((await start(f.manager.jar, id)).statusCode).toBe(200);
    expect((await start(f.manager.jar, id)).statusCode).toBe(409);
    expect((await putChunk(f.manager.jar, id, 2, bytes)).statusCode).toBe(409);
    await drainJobs(t.app);
    expect((await status(f.manager.jar, id)).json()).toMatchObject({ status: 'done' });
  });

  it('only .csv files, of a kind built and allowed', async () => {
    const refused = await create(f.manager.jar, {
      kind: 'customers',
      fileName: 'people.xlsx',
      totalBytes: 10,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(csvMessages.notCsv);
    // Credits are the till's: staff with the customer list but not point of sale may not.
    const clerk = await insertTestUser(t.db);
    await addMembership(t.db, clerk.id, f.org.id, 'staff', ['view-customers']);
    const { jar } = await logInAs(t.app, clerk.email!, {
      profileType: 'use-org',
      profileOrgId: f.org.id,
    });
    expect(
      (await create(jar, { kind: 'credits', fileName: 'c.csv', totalBytes: 10 })).statusCode,
    ).toBe(403);
  });

  it('another organisation’s staff, staff without the customer list and customers can neither start, see nor feed an import', async () => {
    const bytes = Buffer.from(`Ann,Lee,${uniqueEmail('wall')}\n`);
    const { id } = (
      await create(f.manager.jar, {
        kind: 'customers',
        fileName: 'a.csv',
        totalBytes: bytes.length,
      })
    ).json<{ id: string }>();
    const outsider = await insertTestUser(t.db);
    await addMembership(t.db, outsider.id, f.otherOrg.id, 'staff');
    const other = (
      await logInAs(t.app, outsider.email!, { profileType: 'use-org', profileOrgId: f.otherOrg.id })
    ).jar;
    for (const jar of [other]) {
      expect((await status(jar, id)).statusCode).toBe(404);
      expect((await putChunk(jar, id, 0, bytes)).statusCode).toBe(404);
      expect((await start(jar, id)).statusCode).toBe(404);
      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/imports',
        headers: jar.headers(),
      });
      expect(listed.json<{ imports: ImportStatus[] }>().imports.map((i) => i.id)).not.toContain(id);
    }
    for (const jar of [f.clerk.jar, f.parent.jar]) {
      expect((await status(jar, id)).statusCode).toBe(403);
      expect((await putChunk(jar, id, 0, bytes)).statusCode).toBe(403);
      expect((await start(jar, id)).statusCode).toBe(403);
      expect(
        (await create(jar, { kind: 'customers', fileName: 'a.csv', totalBytes: 1 })).statusCode,
      ).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/imports/${id}` });
    expect(anonymous.statusCode).toBe(401);
    // Nothing arrived from any of them.
    expect((await status(f.manager.jar, id)).json()).toMatchObject({
      status: 'uploading',
      receivedBytes: 0,
    });
  });
});
