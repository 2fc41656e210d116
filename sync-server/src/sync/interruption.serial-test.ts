import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { createTestDatabase } from '../testing/test-database.ts';
import { addMembership, insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { timeEntry } from '../testing/sync-fixtures.ts';
import { signInOverHttp, startServerProcess } from '../testing/server-process.ts';
import type { Database } from '../db/open-database.ts';

// Guarantee 5: killing the server in the middle of pushes loses no acknowledged write and
// leaves no half-applied batch (one transaction per push).
describe.runIf(process.env.DATABASE_URL)('a server killed mid-push', () => {
  let database: Database & { url?: string };
  let child: ChildProcess | undefined;
  let orgId = '';
  let userId = '';
  let email = '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const org = await insertTestOrg(database.db);
    const user = await insertTestUser(database.db);
    await addMembership(database.db, user.id, org.id, 'staff');
    orgId = org.id;
    userId = user.id;
    email = user.email ?? '';
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await database.close();
  });

  it('keeps every acknowledged batch whole and no refused or cut batch in part', async () => {
    const port = 41_000 + Math.floor(Math.random() * 2000);
    child = await startServerProcess({ DATABASE_URL: database.url ?? '' }, port);
    const base = `http://127.0.0.1:${port}`;
    const cookie = await signInOverHttp(base, email, orgId);

    const batches: Array<{ ids: string[]; acked: boolean }> = [];
    const pushBatch = async () => {
      const docs = Array.from({ length: 200 }, () =>
        timeEntry(orgId, userId, { id: randomUUID() }),
      );
      const batch = { ids: docs.map((d) => d.id), acked: false };
      batches.push(batch);
      try {
        const res = await fetch(`${base}/api/sync/time-entries/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(
            docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
          ),
        });
        batch.acked = res.ok && (await res.json()).length === 0;
      } catch {
        // the server died under this request
      }
    };
    const clients = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 50 && child?.exitCode === null && !child.killed; i++) await pushBatch();
    });
    // Kill once some batches are through, at a moment that falls inside others.
    while (batches.filter((b) => b.acked).length < 2) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, Math.random() * 50));
    child.kill('SIGKILL');
    await Promise.all(clients);

    const acked = batches.filter((b) => b.acked);
    expect(acked.length).toBeGreaterThan(0);
    expect(batches.some((b) => !b.acked)).toBe(true);
    for (const batch of batches) {
      const stored = await database.db
        .select({ id: timeEntries.id })
        .from(timeEntries)
        .where(inArray(timeEntries.id, batch.ids));
      if (batch.acked) expect(stored).toHaveLength(batch.ids.length);
      else expect([0, batch.ids.length]).toContain(stored.length);
    }
  });
});
