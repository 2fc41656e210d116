import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, SqlExecutor, Tx } from '../db/open-database.ts';
import { sql } from 'drizzle-orm';
import {
  deadLetterOf,
  jobDefinitions,
  jobNames,
  type JobName,
  type JobPayload,
} from './job-definitions.ts';

export type JobContext = {
  jobId: string;
  /** 1 for the first run. */
  attempt: number;
  /** No retry follows if this run fails. */
  lastAttempt: boolean;
};
export type JobHandler<N extends JobName> = (
  payload: JobPayload<N>,
  job: JobContext,
) => Promise<void>;
/** Runs once a job has failed for good (every retry used, or it kept timing out). */
export type JobFailureHandler<N extends JobName> = (
  payload: JobPayload<N>,
  error: string,
) => Promise<void>;

export type JobQueueSettings = {
  /**
   * False: the queue is not set up at all and nothing may be queued — only for a test app that
   * borrows another app's database (the outage tests), never in a server.
   */
  enabled?: boolean;
  /** False: jobs are stored but this process runs none (tests of what a request alone does). */
  work: boolean;
  /** How often an idle worker looks for jobs another process queued (or whose retry is due). */
  pollingIntervalSeconds: number;
  /** Tests shorten the backoff base (and may cap the retries) of every job; production uses each job's own. */
  retryDelaySeconds?: number;
  retryLimit?: number;
  /** How long close waits for running jobs before handing them back (failed, so retried). */
  stopTimeoutMs: number;
};

export const defaultJobQueueSettings: JobQueueSettings = {
  work: true,
  pollingIntervalSeconds: 2,
  stopTimeoutMs: 10_000,
};

/** NOTIFY channel: a job was queued (delivered at commit, so never for a rolled-back one). */
const WAKE_CHANNEL = 'job_queue';
const SCHEMA = 'pgboss';

type Registered = { handle: JobHandler<JobName>; onFailure?: JobFailureHandler<JobName> };

/**
 * Background work through pg-boss in PostgreSQL (decision 0014), on the app's own database
 * handle — postgres.js or PGlite — so the embedded default runs the same queue. Jobs are
 * fetched with FOR UPDATE SKIP LOCKED: of several processes on one database exactly one runs
 * each job. Failed jobs are retried with exponential backoff; a job that fails for good lands
 * in its dead-letter queue, which is logged and may clean up (`onFailure`).
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<JobName, Registered>();
  /** Queue name (a job kind or its dead letter) → this process's worker of it. */
  private readonly workerIds = new Map<string, string>();
  /** Queries and handlers still running: close waits for them before the database closes. */
  private readonly running = new Set<Promise<unknown>>();
  private unlisten: (() => Promise<void>) | undefined;
  private state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';

  constructor(
    private readonly database: Database,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>,
    private readonly settings: JobQueueSettings = defaultJobQueueSettings,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.track(database.executeSql(text, values)) },
      schema: SCHEMA,
      // Maintenance (expiring stuck jobs, archiving finished ones) and cron belong to the
      // processes that work; one that only stores jobs stays quiet.
      supervise: settings.work,
      schedule: settings.work,
      migrate: true,
      pollingIntervalSeconds: settings.pollingIntervalSeconds,
      // Finished jobs hold ids and addresses only; gone from the archive after a week.
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  /** Registers the handler of a job kind; before start. */
  handle<N extends JobName>(name: N, handle: JobHandler<N>, onFailure?: JobFailureHandler<N>) {
    if (this.state !== 'new') throw new Error(`job handler ${name} registered after start`);
    this.handlers.set(name, { handle, onFailure } as unknown as Registered);
  }

  /** Installs or migrates pg-boss's schema, creates the queues, and starts the workers. */
  async start(): Promise<void> {
    if (this.state !== 'new' || this.settings.enabled === false) return;
    await this.oneProcessAtATime(async () => {
      await this.boss.start();
      await this.createQueues();
    });
    this.state = 'started';
    if (!this.settings.work) return;
    for (const [name, registered] of this.handlers) await this.startWorker(name, registered);
    for (const name of jobNames) {
      const { cron } = jobDefinitions[name] as { cron?: string };
      if (cron) await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
    }
    this.unlisten = await this.database.listen(WAKE_CHANNEL, (name) => this.wake(name));
  }

  /**
   * pg-boss's first install and its create_queue are not safe for two processes starting on
   * one database at once (seen here: "duplicate key … pg_namespace_nspname_index", then
   * deadlocks attaching queue partitions). On PostgreSQL the set-up runs under an advisory
   * lock, held by a transaction while pg-boss works on other connections; PGlite has one
   * process (and one connection: a transaction there would block pg-boss's own queries).
   */
  private async oneProcessAtATime(setUp: () => Promise<void>): Promise<void> {
    if (this.database.kind === 'pglite') return setUp();
    await this.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('job-queue-set-up'))`);
      await setUp();
    });
  }

  private async createQueues(): Promise<void> {
    for (const name of jobNames) {
      const definition = jobDefinitions[name];
      const deadLetter = { name: deadLetterOf(name), retryLimit: 3 };
      await this.boss.createQueue(deadLetter.name, deadLetter);
      const queue = {
        name,
        retryLimit: this.settings.retryLimit ?? definition.retryLimit,
        retryDelay: this.settings.retryDelaySeconds ?? definition.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds,
        deadLetter: deadLetterOf(name),
      };
      // Create keeps an existing queue as it was; update brings it to today's definition.
      await this.boss.createQueue(name, queue);
      await this.boss.updateQueue(name, queue);
    }
  }

  /**
   * Queues a job. Inside `tx` it is stored by that transaction: it exists (and wakes the
   * workers) only if the transaction commits.
   */
  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options: { tx?: Tx } = {}) {
    if (this.settings.enabled === false) throw new Error('this app has no job queue');
    const data = jobDefinitions[name].payload.parse(payload);
    const executeSql: SqlExecutor = options.tx
      ? this.database.executorIn(options.tx)
      : (text, values) => this.track(this.database.executeSql(text, values));
    const id = await this.boss.send(name, data, { db: { executeSql } });
    // pg-boss answers null, storing nothing, when the queue does not exist: never silently.
    if (!id)
      throw new Error(`job ${name} was not queued (queue missing: is the job queue started?)`);
    await executeSql('select pg_notify($1, $2)', [WAKE_CHANNEL, name]);
    return id;
  }

  /** Lets the worker of `name` (or every worker) look for jobs now instead of at its next poll. */
  wake(name?: string): void {
    for (const [queue, workerId] of this.workerIds)
      if (!name || name === queue) this.boss.notifyWorker(workerId);
  }

  /** Jobs that are due or running (not counting retries waiting for their time): for tests. */
  async dueCount(): Promise<number> {
    const { rows } = await this.database.executeSql(
      `select count(*)::int as due from ${SCHEMA}.job
        where name not like '\\_\\_pgboss%'
          and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    );
    return Number((rows[0] as { due: number | string } | undefined)?.due ?? 0);
  }

  /**
   * Stops taking jobs, lets the running ones finish for up to stopTimeoutMs, then hands the
   * rest back (failed, so another process retries them), and waits for its own queries.
   */
  async stop(): Promise<void> {
    if (this.state !== 'started') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    const deadline = Date.now() + this.settings.stopTimeoutMs;
    await this.unlisten?.();
    await this.boss.stop({
      graceful: true,
      close: false,
      wait: true,
      timeout: this.settings.stopTimeoutMs,
    });
    // pg-boss completes jobs without awaiting, and a fetch may still be answering; a handler
    // pg-boss gave up on may still run too, but not past the deadline.
    while (this.running.size > 0 && Date.now() < deadline)
      await Promise.race([
        Promise.allSettled([...this.running]),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref()),
      ]);
    this.state = 'stopped';
  }

  private async startWorker(name: JobName, registered: Registered) {
    const options = { includeMetadata: true as const, batchSize: 1 };
    const workerId = await this.boss.work<object>(name, options, ([job]) => {
      if (!job) return Promise.resolve();
      return this.track(this.run(name, registered, job));
    });
    this.workerIds.set(name, workerId);
    const deadLetterWorkerId = await this.boss.work<object>(
      deadLetterOf(name),
      options,
      async ([job]) => {
        if (!job) return;
        const error = errorMessageOf(job.output);
        this.log.error({ job: name, jobId: job.id, error }, 'job failed for good');
        if (registered.onFailure)
          await this.track(
            registered.onFailure(jobDefinitions[name].payload.parse(job.data), error),
          );
      },
    );
    this.workerIds.set(deadLetterOf(name), deadLetterWorkerId);
  }

  private async run(name: JobName, registered: Registered, job: PgBoss.JobWithMetadata<object>) {
    // A job fetched while closing goes back at once; another process (or the next start) runs it.
    if (this.state !== 'started') throw new Error('job queue closing');
    const context = {
      jobId: job.id,
      attempt: job.retryCount + 1,
      lastAttempt: job.retryCount >= job.retryLimit,
    };
    try {
      await registered.handle(jobDefinitions[name].payload.parse(job.data), context);
    } catch (error) {
      this.log.warn(
        { err: error, job: name, jobId: job.id, attempt: context.attempt },
        context.lastAttempt ? 'job failed on its last attempt' : 'job failed; retried with backoff',
      );
      throw error;
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    const forget = () => this.running.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}

/** pg-boss stores a thrown error as its serialised properties (or a timeout's message). */
function errorMessageOf(output: unknown): string {
  if (output && typeof output === 'object') {
    const record = output as { message?: unknown; value?: { message?: unknown } };
    const message = record.message ?? record.value?.message;
    if (typeof message === 'string') return message.slice(0, 1000);
  }
  return 'unknown error';
}
