import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RateLimited, retryAfterSeconds } from '../rate-limits/rate-limits.ts';

/**
 * Every 429 a rate limit answers carries Retry-After (in whole seconds), whichever feature
 * threw it. Rows that count as absent are deleted by the hourly prune job (maintenance/).
 */
export const rateLimitsPlugin = fp(
  async (app: FastifyInstance) => {
    // onError runs before the error handler (plugins/http-map.ts) writes the answer.
    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof RateLimited)
        reply.header('retry-after', String(retryAfterSeconds(error.retryAfterMs)));
    });
  },
  { name: 'rate-limits', dependencies: ['db'] },
);
