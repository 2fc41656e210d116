import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/open-database.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import { waitFor } from '../testing/job-fixtures.ts';
import { JobQueue, type JobQueueSettings } from './job-queue.ts';

type Logged = { level: 'error' | 'warn' | 'info'; fields: unknown; message: string };

/** A JobQueue as the app builds it, with a log the test reads. */
function queueOn(database: Database, settings: Partial<JobQueueSettings> = {}) {
  const logged: Logged[] = [];
  const record = (level: Logged['level']) => (fields: unknown, message: string) =>
    void logged.push({ level, fields, message });
  const log = { error: record('error'), warn: record('warn'), info: record('info') };
  const queue = new JobQueue(database, log as never, {
    work: true,
    pollingIntervalSeconds: 0.5,
    retryDelaySeconds: 1,
    stopTimeoutMs: 1_000,
    ...settings,
  });
  return { queue, logged };
}

const notice = (title: string) => ({
  orgId: null,
  userIds: [randomUUID()],
  title,
  body: 'b',
  url: '/',
});

async function jobRows(database: Database, title: string) {
  const { rows } = await database.executeSql(
    `select state, retry_count, start_after, completed_on, output from pgboss.job
      where name = 'push-notice' and data->>'title' = $1`,
    [title],
  );
  return rows as Array<{
    state: string;
    retry_count: number;
    start_after: Date;
    completed_on: Date | null;
    output: unknown;
  }>;
}

describe.each(testDatabaseKinds)('job queue on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('queues a job inside a transaction: gone with a rollback, run after a commit', async () => {
    const { queue } = queueOn(database);
    const ran: string[] = [];
    queue.handle('push-notice', async (payload) => void ran.push(payload.title));
    await queue.start();
    try {
      await database.db
        .transaction(async (tx) => {
          await queue.enqueue('push-notice', notice('rolled back'), { tx });
          throw new Error('roll back');
        })
        .catch(() => {});
      await database.db.transaction(async (tx) => {
        await queue.enqueue('push-notice', notice('committed'), { tx });
      });
      await waitFor('the committed job', async () => ran.includes('committed'));
      expect(await jobRows(database, 'rolled back')).toEqual([]);
      expect(ran).toEqual(['committed']);
    } finally {
      await queue.stop();
    }
  });

  it('retries a failing job with growing delays, then dead-letters and logs it', async () => {
    const { queue, logged } = queueOn(database, { retryLimit: 2 });
    const attempts: number[] = [];
    const failures: string[] = [];
    queue.handle(
      'push-notice',
      async (_payload, job) => {
        attempts.push(Date.now());
        throw new Error(`push service down (attempt ${job.attempt}, last ${job.lastAttempt})`);
      },
      async (payload, error) => void failures.push(`${payload.title}: ${error}`),
    );
    await queue.start();
    try {
      await queue.enqueue('push-notice', notice('doomed'));
      await waitFor('the dead letter', async () => failures.length > 0);
      expect(attempts).toHaveLength(3);
      // Backoff with jitter: the n-th retry waits 1 s × 2^(n-1) to twice that.
      const [first, second, third] = attempts as [number, number, number];
      expect(second - first).toBeGreaterThanOrEqual(1_000);
      expect(third - second).toBeGreaterThanOrEqual(2_000);
      expect(failures).toEqual(['doomed: push service down (attempt 3, last true)']);
      const [row] = await jobRows(database, 'doomed');
      expect(row).toMatchObject({ state: 'failed', retry_count: 2 });
      expect(
        logged.filter((entry) => entry.message === 'job failed; retried with backoff'),
      ).toHaveLength(2);
      expect(logged).toContainEqual(
        expect.objectContaining({ level: 'error', message: 'job failed for good' }),
      );
    } finally {
      await queue.stop();
    }
  }, 30_000);

  it('on stop finishes a short running job, and hands a long one back to be run again', async () => {
    const first = queueOn(database, { stopTimeoutMs: 1_000 });
    const started: string[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const work = async (payload: { title: string }) => {
      started.push(payload.title);
      if (payload.title === 'long') await released;
      else await new Promise((resolve) => setTimeout(resolve, 300));
    };
    first.queue.handle('push-notice', work);
    await first.queue.start();
    await first.queue.enqueue('push-notice', notice('short'));
    await waitFor('the short job to start', async () => started.includes('short'));
    await first.queue.stop();
    expect((await jobRows(database, 'short'))[0]).toMatchObject({ state: 'completed' });

    const second = queueOn(database, { stopTimeoutMs: 1_000 });
    second.queue.handle('push-notice', work);
    await second.queue.start();
    await second.queue.enqueue('push-notice', notice('long'));
    await waitFor('the long job to start', async () => started.includes('long'));
    await second.queue.stop();
    release();
    const [handedBack] = await jobRows(database, 'long');
    expect(handedBack).toMatchObject({ state: 'retry', retry_count: 0 });

    const third = queueOn(database);
    const rerun: string[] = [];
    third.queue.handle('push-notice', async (payload) => void rerun.push(payload.title));
    await third.queue.start();
    try {
      await waitFor('the handed-back job to run again', async () => rerun.includes('long'));
      // pg-boss marks a job completed just after its handler returns.
      await waitFor(
        'the handed-back job to be completed',
        async () => (await jobRows(database, 'long'))[0]?.state === 'completed',
      );
    } finally {
      await third.queue.stop();
    }
  }, 30_000);
});

describe.runIf(testDatabaseKinds.includes('postgres'))(
  'job queue, two processes on one database',
  () => {
    let url: string;
    let databases: Database[] = [];
    beforeAll(async () => {
      const first = await createTestDatabase('postgres');
      url = first.url!;
      databases = [first];
    });
    afterAll(async () => {
      for (const database of databases.slice(1)) await database.close();
      await databases[0]?.close();
    });

    it('runs each job exactly once', async () => {
      const { openDatabase } = await import('../db/open-database.ts');
      databases.push(await openDatabase({ databaseUrl: url, maxConnections: 5 }));
      const runs: Array<{ process: number; title: string }> = [];
      const queues = databases.map((database, index) => {
        const { queue } = queueOn(database);
        queue.handle('push-notice', async (payload) => {
          runs.push({ process: index, title: payload.title });
          await new Promise((resolve) => setTimeout(resolve, 20));
        });
        return queue;
      });
      await Promise.all(queues.map((queue) => queue.start()));
      try {
        const titles = Array.from({ length: 30 }, (_, index) => `job ${index}`);
        for (const title of titles) await queues[0]!.enqueue('push-notice', notice(title));
        await waitFor('every job', async () => runs.length >= titles.length);
        // Stopping waits for every run still going, so a duplicate would be counted.
        await Promise.all(queues.map((queue) => queue.stop()));
        expect(runs.map((run) => run.title).sort()).toEqual([...titles].sort());
        expect(new Set(runs.map((run) => run.process))).toEqual(new Set([0, 1]));
      } finally {
        await Promise.all(queues.map((queue) => queue.stop()));
      }
    }, 30_000);
  },
);
