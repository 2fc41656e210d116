import 'fake-indexeddb/auto';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_MAX, type CustomerNoteDoc } from '@platform/schema/crm/customer-note.zod';
import { PUSH_REQUEST_BYTES, pushTooLargeMessage } from '@platform/schema/sync/push-limits';
import { createTestApp, listenOnLoopback } from '../../../sync-server/src/testing/test-app.ts';
import {
  insertRosterItem,
  pullAs,
  seedSyncOrg,
} from '../../../sync-server/src/testing/sync-fixtures.ts';
import { saveDocument } from './local-writes.ts';
import { openTestDevice, until } from './test-device.ts';

type Device = Awaited<ReturnType<typeof openTestDevice>>;

/** What went towards the server's push endpoint: each body once per send, and the answer. */
type Sent = { body: string; bytes: number; status: number };

/**
 * Something on the way to the server that refuses push bodies past `limit` bytes with 413 (a
 * proxy with its own `client_max_body_size`, an older server), and notes every push sent.
 */
const wayWithLimit =
  (sent: Sent[], limit = Infinity) =>
  (send: typeof fetch): typeof fetch =>
  async (input, init) => {
    if (!String(input).endsWith('/push')) return send(input, init);
    const body = String(init?.body ?? '');
    const bytes = Buffer.byteLength(body);
    const response =
      bytes > limit
        ? new Response('Request Entity Too Large', { status: 413 })
        : await send(input, init);
    sent.push({ body, bytes, status: response.status });
    return response;
  };

// Non-Latin text, three bytes of UTF-8 a character: a note of the longest kind is 15 KB, and
// 100 of them (a whole push batch) 1.5 MB — past the 1 MiB the server and proxies took.
const longest = '練習後の膝の状態を記録。'.repeat(NOTE_MAX).slice(0, NOTE_MAX);

// Issue 12: a batch the app makes is never refused for ever. The device sends its batch in
// parts that any proxy with the default limit takes, and a part refused for its size (413) in
// smaller parts — never the same body again.
describe('a device with a hundred of the longest notes queued offline', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let org: Awaited<ReturnType<typeof seedSyncOrg>>;
  let base: string;
  let devices: Device[] = [];

  beforeAll(async () => {
    t = await createTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    org = await seedSyncOrg(t.app, t.db);
    await insertRosterItem(t.db, org.org.id, { id: org.otherCustomerId, email: org.other.email });
    base = await listenOnLoopback(t.app);
  });
  afterEach(async () => {
    for (const device of devices) {
      await device.sync.stop();
      await device.db.close();
    }
    devices = [];
  });
  afterAll(() => t.close());

  const openDesk = async (label: string, through: ReturnType<typeof wayWithLimit>) => {
    const desk = await openTestDevice(label, org.manager, base, {
      collections: ['customer-notes'],
      through,
    });
    devices.push(desk);
    return desk;
  };

  /** Notes written at the desk with the network down, one a minute. */
  const writeOffline = async (desk: Device, bodies: string[]) => {
    desk.link.online = false;
    const start = Date.now() - 3 * 60 * 60_000;
    const notes: CustomerNoteDoc[] = [];
    for (const [i, body] of bodies.entries()) {
      const at = new Date(start + i * 60_000).toISOString();
      notes.push(
        await saveDocument(
          desk.db,
          'customer-notes',
          {
            id: crypto.randomUUID(),
            orgId: org.org.id,
            userId: org.otherCustomerId,
            body,
            authorId: org.manager.id,
            authorName: 'Test User',
            createdAt: at,
            updatedAt: at,
          },
          new Date(at),
        ),
      );
    }
    desk.link.online = true;
    desk.sync.reconnect();
    return notes;
  };

  const onServer = async () =>
    (await pullAs(t, org.manager, 'customer-notes', '?batchSize=1000')).json<{
      documents: Array<CustomerNoteDoc & { _deleted: boolean }>;
    }>().documents;

  /** Every note arrived, and the device holds exactly what the server hands back. */
  const expectAllArrived = async (desk: Device, notes: CustomerNoteDoc[]) => {
    const ids = new Set(notes.map((note) => note.id));
    await until(
      async () => (await onServer()).filter((doc) => ids.has(doc.id)).length === ids.size,
      60_000,
    );
    await desk.sync.awaitInSync();
    const server = (await onServer()).filter((doc) => ids.has(doc.id));
    expect(server.map(({ _deleted, ...doc }) => (void _deleted, doc))).toEqual(
      expect.arrayContaining(notes),
    );
    const local = await desk.db.collections['customer-notes'].find().exec();
    expect(local.map((doc) => ({ ...doc.toJSON(), _deleted: false }))).toEqual(
      expect.arrayContaining(server),
    );
  };

  it('sends them all, in requests of at most PUSH_REQUEST_BYTES', async () => {
    const sent: Sent[] = [];
    const desk = await openDesk('-desk', wayWithLimit(sent));
    const notes = await writeOffline(
      desk,
      Array.from({ length: 100 }, () => longest),
    );

    await expectAllArrived(desk, notes);
    expect(sent.length).toBeGreaterThan(1);
    for (const push of sent) {
      expect(push.bytes).toBeLessThanOrEqual(PUSH_REQUEST_BYTES);
      expect(push.status).toBe(200);
    }
  }, 120_000);

  it('splits a part refused for its size on the way, and never sends that body again', async () => {
    const sent: Sent[] = [];
    const desk = await openDesk('-proxied', wayWithLimit(sent, 256 * 1024));
    const notes = await writeOffline(
      desk,
      Array.from({ length: 100 }, () => longest),
    );

    await expectAllArrived(desk, notes);
    const refused = sent.filter((push) => push.status === 413);
    expect(refused.length).toBeGreaterThan(0);
    for (const { body } of refused)
      expect(sent.filter((push) => push.body === body)).toHaveLength(1);
  }, 120_000);

  it('keeps aside a single change the way refuses whole, and sends the rest', async () => {
    const sent: Sent[] = [];
    // Smaller than one of the longest notes (15 KB), larger than a short one.
    const desk = await openDesk('-tiny-way', wayWithLimit(sent, 8 * 1024));
    const [tooLong, ...short] = await writeOffline(desk, [
      longest,
      'Paid in cash.',
      'Knee feels better.',
    ]);

    await expectAllArrived(desk, short);
    await until(async () => (await desk.db.rejections.find().exec()).length === 1, 30_000);
    const [rejection] = await desk.db.rejections.find().exec();
    expect(rejection?.documentId).toBe(tooLong?.id);
    expect(rejection?.message).toBe(pushTooLargeMessage);
    expect((await onServer()).map((doc) => doc.id)).not.toContain(tooLong?.id);
    // Nothing is left waiting to be sent: the queue is not stuck on it.
    expect(await firstValueFrom(desk.sync.pending.count$)).toBe(0);
  }, 120_000);
});
