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
 * workers start when it is ready, and stop when it closes — before the database, which
 * closes after the app — finishing the running job or handing it back (decision 0014).
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { settings?: Partial<JobQueueSettings> }) => {
    const jobs = new JobQueue(app.database, app.log, {
      ...defaultJobQueueSettings,
      ...opts.settings,
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', () => jobs.start());
    // onClose: the database closes only after the app (server.ts stopServer), and a preClose
    // here would hold up the live streams' goodbye while a job waits for the database.
    app.addHook('onClose', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['db'] },
);
