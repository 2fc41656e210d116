import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { NOTE_MAX } from '@platform/schema/crm/customer-note.zod';
import { customerNotes, rosterItems } from '@platform/schema/db';
import { PUSH_BATCH_SIZE } from '@platform/schema/sync/push-limits';
import { seedFamilies } from '../families/families.fixtures.ts';
import { enrolCustomer } from './roster.service.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { noteSyncMessages } from './customer-notes.sync.ts';

/**
 * Staff notes written on a device (issue 7 'Offline at the front desk', decision 0013): pushed
 * by replication, new notes only, in the pusher's own name, about the organisation's customers.
 */
describe.each(testDatabaseKinds)('customer notes replication on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;

  const pull = async (jar: CookieJar) => {
    await waitForVisibility(t.db);
    return t.app.inject({
      method: 'GET',
      url: '/api/sync/customer-notes/pull',
      headers: jar.headers(),
    });
  };
  const push = (
    jar: CookieJar,
    rows: Array<{ assumedMasterState: unknown; newDocumentState: unknown }>,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sync/customer-notes/push',
      headers: jar.headers(),
      payload: rows,
    });
  const pushNew = (jar: CookieJar, docs: object[]) =>
    push(
      jar,
      docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
    );
  const note = (overrides: Record<string, unknown> = {}) => {
    const writtenAt = new Date(Date.now() - 60 * 60_000).toISOString();
    return {
      id: randomUUID(),
      orgId: f.org.id,
      userId: f.parent.id,
      body: 'Knee feels better; back to full squats.',
      authorId: f.manager.id,
      authorName: 'Morgan Manager',
      createdAt: writtenAt,
      updatedAt: writtenAt,
      _deleted: false,
      ...overrides,
    };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    f = await seedFamilies(t.app, t.db);
    await t.db.transaction(async (tx) => {
      await enrolCustomer(tx, f.org.id, f.parent);
      await enrolCustomer(tx, f.otherOrg.id, f.stranger);
    });
  });

  it('takes a note written offline, keeps its time, and shows it on the profile', async () => {
    const written = note({ authorName: 'Whatever the device says' });
    expect((await pushNew(f.manager.jar, [written])).statusCode).toBe(200);

    const pulled = (await pull(f.manager.jar)).json<{ documents: Array<{ id: string }> }>();
    // The author's name is the server's; the time is when it was written on the device.
    expect(pulled.documents).toContainEqual({ ...written, authorName: 'Morgan Manager' });
    const [item] = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, f.parent.id));
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/crm/customers/${item!.id}`,
      headers: f.manager.jar.headers(),
    });
    expect(profile.json<CustomerProfile>().notes).toContainEqual({
      id: written.id,
      body: written.body,
      authorId: f.manager.id,
      authorName: 'Morgan Manager',
      createdAt: written.createdAt,
    });
  });

  it('hands a note added through the REST call to devices too', async () => {
    const [item] = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, f.parent.id));
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/crm/customers/${item!.id}/notes`,
      headers: f.manager.jar.headers(),
      payload: { body: 'Paid in cash.' },
    });
    expect(added.statusCode).toBe(201);
    const pulled = (await pull(f.manager.jar)).json<{ documents: Array<{ body: string }> }>();
    expect(pulled.documents.map((d) => d.body)).toContain('Paid in cash.');
  });

  it('never changes or removes a saved note', async () => {
    const written = note();
    await pushNew(f.manager.jar, [written]);
    const [master] = (await pull(f.manager.jar)).json<{ documents: object[] }>().documents;
    const edited = await push(f.manager.jar, [
      { assumedMasterState: master, newDocumentState: { ...written, body: 'Rewritten history' } },
    ]);
    expect(edited.statusCode).toBe(422);
    expect(edited.json()).toEqual({
      errors: [{ id: written.id, message: noteSyncMessages.immutable }],
    });
    const removed = await push(f.manager.jar, [
      { assumedMasterState: master, newDocumentState: { ...written, _deleted: true } },
    ]);
    expect(removed.statusCode).toBe(422);
    const [row] = await t.db.select().from(customerNotes).where(eq(customerNotes.id, written.id));
    expect(row).toMatchObject({ body: written.body, deleted: false });
  });

  it('refuses a note in someone else’s name, dated ahead, or about no customer of ours', async () => {
    const otherAuthor = note({ authorId: f.clerk.id });
    const ahead = note({ createdAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    const strangers = note({ userId: f.stranger.id });
    const res = await pushNew(f.manager.jar, [otherAuthor, ahead, strangers]);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        { id: otherAuthor.id, message: noteSyncMessages.ownName },
        { id: ahead.id, message: noteSyncMessages.future },
        { id: strangers.id, message: crmMessages.notFound },
      ]),
    );
    // Nothing of a refused push is stored.
    expect(
      await t.db.select().from(customerNotes).where(eq(customerNotes.orgId, f.org.id)),
    ).toEqual([]);
  });

  it('keeps notes inside the organisation and away from customers and other staff', async () => {
    // Another organisation's note is out of reach, even with its customer's id.
    const theirs = note({ orgId: f.otherOrg.id, userId: f.stranger.id });
    expect((await pushNew(f.manager.jar, [theirs])).statusCode).toBe(422);
    // Staff without view-customers, and customers, replicate no notes at all.
    expect((await pull(f.clerk.jar)).statusCode).toBe(403);
    expect((await pull(f.parent.jar)).statusCode).toBe(403);
    expect((await pushNew(f.parent.jar, [note({ authorId: f.parent.id })])).statusCode).toBe(403);
  });

  it('takes a whole batch of the longest notes in non-Latin text (issue 12: it was 413 for ever)', async () => {
    // 3 bytes of UTF-8 a character: 100 × 5,000 characters is 1.5 MB, past the app's 1 MiB.
    const body = '練習後の膝の状態を記録。'.repeat(NOTE_MAX).slice(0, NOTE_MAX);
    const notes = Array.from({ length: PUSH_BATCH_SIZE }, () => note({ body }));
    const rows = notes.map((doc) => ({ assumedMasterState: null, newDocumentState: doc }));
    expect(Buffer.byteLength(JSON.stringify(rows))).toBeGreaterThan(1_500_000);

    const res = await push(f.manager.jar, rows);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const stored = await t.db.select().from(customerNotes).where(eq(customerNotes.orgId, f.org.id));
    expect(stored.map((row) => row.body)).toEqual(notes.map(() => body));
  });
});
