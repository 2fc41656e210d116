import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { defaultJobQueueSettings, JobQueue, type JobQueueSettings } from './job-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

/**
 * The job queue on the app's database: handlers are registered while the app is built, the
 * workers start when it is ready, and stop first thing when it closes — before the HTTP
 * server and the database — finishing the running job or handing it back (decision 0014).
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { settings?: Partial<JobQueueSettings> }) => {
    const jobs = new JobQueue(app.database, app.log, {
      ...defaultJobQueueSettings,
      ...opts.settings,
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', () => jobs.start());
    // preClose, not onClose: onClose hooks run newest first, so the database's own close
    // (added by server.ts after the app is built) would run before a worker stopped here.
    app.addHook('preClose', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['db'] },
);
