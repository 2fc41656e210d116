import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterItems } from '@platform/schema/db';
import { importSettled, type ImportStatus } from '@platform/schema/imports/import.zod';
import { seedFamilies } from '../families/families.fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';

const ROWS = 100_000;

/**
 * Issue 17: a 100,000-row customer import on PostgreSQL (CI's database), sent in the chunks the
 * server asks for, followed by its progress while it writes, and every row on the list at the
 * end — in one transaction. (Its speed beside COPY is scripts/bench/import.bench.ts.)
 *
 * A serial test: its ~30 s write transaction held back the visibility bound every live change
 * waited for, cluster-wide, and stream and replication tests of other files ran out of time
 * beside it (a full run of 2026-11-28 failed seven files so). Since decision 0076 it holds only
 * its own database's feeds; it stays serial for its CPU.
 */
describe.runIf(process.env.DATABASE_URL)('a 100,000-row customer import on PostgreSQL', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    f = await seedFamilies(t.app, t.db);
  }, 60_000);
  afterAll(() => t.close());

  it('lands every row once, telling its progress on the way', async () => {
    const lines = ['firstName,lastName,email,phoneNumber'];
    for (let i = 0; i < ROWS; i++)
      lines.push(
        `First${i},"Last, ${i}",big-${i}@example.test,+1 201 555 ${String(i % 10000).padStart(4, '0')}`,
      );
    const bytes = Buffer.from(lines.join('\r\n'));
    const headers = f.manager.jar.headers();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers,
      payload: { kind: 'customers', fileName: 'big.csv', totalBytes: bytes.length },
    });
    const { id, chunkBytes } = created.json<{ id: string; chunkBytes: number }>();
    expect(chunkBytes).toBe(5 * 1024 * 1024);
    for (let seq = 0; seq * chunkBytes < bytes.length; seq++) {
      const sent = await t.app.inject({
        method: 'PUT',
        url: `/api/imports/${id}/chunks/${seq}`,
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        payload: bytes.subarray(seq * chunkBytes, (seq + 1) * chunkBytes),
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/imports/${id}/start`, headers })).statusCode,
    ).toBe(200);

    const started = Date.now();
    const seen = new Set<number>();
    let status: ImportStatus;
    for (;;) {
      t.app.jobs.wake();
      status = (
        await t.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers })
      ).json<ImportStatus>();
      seen.add(status.rowsDone);
      if (importSettled(status.status)) break;
      if (Date.now() - started > 240_000) throw new Error('the import did not finish in 4 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toMatchObject({
      status: 'done',
      rowsTotal: ROWS,
      rowsDone: ROWS,
      result: { rows: ROWS, created: ROWS, invited: 0, unchanged: 0 },
    });
    // Progress between nothing and everything was told while the transaction wrote.
    expect([...seen].some((done) => done > 0 && done < ROWS)).toBe(true);
    const [listed] = await t.db
      .select({ n: count() })
      .from(rosterItems)
      .where(eq(rosterItems.orgId, f.org.id));
    expect(listed!.n).toBe(ROWS);
  }, 300_000);
});
