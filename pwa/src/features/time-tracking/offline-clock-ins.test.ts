import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyClockAction,
  clockStatusOf,
  type ClockEntry,
} from '@platform/schema/time-tracking/time-clock.rules';
import { timeEntryOverlapMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import { createTestApp, listenOnLoopback } from '../../../../sync-server/src/testing/test-app.ts';
import { seedSyncOrg, type Person } from '../../../../sync-server/src/testing/sync-fixtures.ts';
import { openAccountDatabase, type AccountDatabase } from '../../db/database.ts';
import { saveDocument } from '../../sync/local-writes.ts';
import { startSync } from '../../sync/replication.ts';

/** A device of `who` that can be taken off the network (its cookies as logged in). */
async function device(label: string, who: Person, base: string) {
  const link = { online: true };
  const cookie = who.jar.headers().cookie ?? '';
  const deviceFetch: typeof fetch = async (input, init) => {
    if (!link.online) throw new TypeError('Failed to fetch');
    const headers = new Headers(init?.headers);
    headers.set('cookie', cookie);
    return fetch(input, { ...init, headers });
  };
  const db = await openAccountDatabase(`${who.id}${label}`, {
    multiInstance: false,
    collections: ['time-entries'],
  });
  const sync = startSync(db, {
    collections: ['time-entries'],
    baseUrl: base,
    fetch: deviceFetch,
    waitForLeadership: false,
    retryTime: 200,
  });
  return { db, sync, link };
}

/** A clock-in as the page makes it offline (use-clock-actions): a new entry with its own id. */
async function clockInOffline(db: AccountDatabase, who: Person, orgId: string, at: string) {
  const move = applyClockAction(clockStatusOf([]), 'clock-in', new Date(at), {
    orgId,
    userId: who.id,
    newEntryId: crypto.randomUUID(),
  });
  if (!move.ok) throw new Error(move.message);
  await saveDocument(db, 'time-entries', move.entry, new Date(at));
  return move.entry.id;
}

const entriesOn = async (db: AccountDatabase) =>
  (await db.collections['time-entries'].find().exec()).map((d): ClockEntry => d.toMutableJSON());

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

// Decision 0010: two devices that each clock the same person in while offline make two
// entries; they overlap, so the one that syncs second is refused — set aside with the reason,
// visibly — and both devices settle on the entry the server kept.
describe('two devices clocking one person in while offline', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let org: Awaited<ReturnType<typeof seedSyncOrg>>;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    org = await seedSyncOrg(t.app, t.db);
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it('keeps the entry that synced first and sets the other aside with the overlap message', async () => {
    const kiosk = await device('kiosk', org.staff, base);
    const phone = await device('phone', org.staff, base);
    try {
      phone.link.online = false;
      const phoneEntry = await clockInOffline(
        phone.db,
        org.staff,
        org.org.id,
        '2026-11-02T13:05:00.000Z',
      );
      const kioskEntry = await clockInOffline(
        kiosk.db,
        org.staff,
        org.org.id,
        '2026-11-02T13:02:00.000Z',
      );
      await kiosk.sync.awaitInSync();

      phone.link.online = true;
      phone.sync.reconnect();
      await until(async () => (await phone.db.rejections.find().exec()).length === 1);
      const [rejection] = await phone.db.rejections.find().exec();
      expect(rejection?.documentId).toBe(phoneEntry);
      expect(rejection?.message).toBe(timeEntryOverlapMessage);

      await until(async () => {
        const ids = (await entriesOn(phone.db)).map((e) => e.id);
        return ids.length === 1 && ids[0] === kioskEntry;
      });
      expect(clockStatusOf(await entriesOn(phone.db)).activeEntry?.startTime).toBe(
        '2026-11-02T13:02:00.000Z',
      );
    } finally {
      for (const d of [kiosk, phone]) {
        await d.sync.stop();
        await d.db.close();
      }
    }
  });
});
