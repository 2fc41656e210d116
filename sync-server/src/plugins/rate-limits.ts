import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pruneRateLimits, RateLimited, retryAfterSeconds } from '../rate-limits/rate-limits.ts';

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Every 429 a rate limit answers carries Retry-After (in whole seconds), whichever feature
 * threw it. Rows of the limits that count as absent are pruned now and then by each process —
 * an idempotent delete — until the job queue takes such chores.
 */
export const rateLimitsPlugin = fp(
  async (app: FastifyInstance) => {
    // onError runs before the error handler (plugins/http-map.ts) writes the answer.
    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof RateLimited)
        reply.header('retry-after', String(retryAfterSeconds(error.retryAfterMs)));
    });
    const timer = setInterval(() => {
      pruneRateLimits(app.db).catch((err: unknown) =>
        app.log.warn({ err }, 'pruning rate limits failed'),
      );
    }, PRUNE_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'rate-limits', dependencies: ['db'] },
);
