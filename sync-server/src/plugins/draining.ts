import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendRetryLater } from './http-map.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * From now on the app finishes what it began and takes nothing new (503); `app.close()`
     * begins it too.
     */
    beginDraining(): void;
  }
}

export const drainingMessage = 'The server is restarting. Try again in a moment.';

/**
 * Draining on close (decision 0031). `app.close()` stops listening and closes idle keep-alive
 * connections; this plugin does the rest:
 * - a request that arrives on a connection still open answers 503 + Retry-After (also /readyz,
 *   so a load balancer stops sending here) instead of starting work nobody may see finish;
 * - a request already running is answered, with `Connection: close`, so its socket ends with it
 *   and the server's close can complete.
 * The app is built with `return503OnClosing: false` so that this answer, with its retry hint,
 * is the one clients get.
 */
export const drainingPlugin = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    app.decorate('beginDraining', () => {
      draining = true;
    });
    app.addHook('preClose', async () => {
      draining = true;
    });
    app.addHook('onRequest', async (_request, reply) => {
      if (draining) return sendRetryLater(reply.header('connection', 'close'), drainingMessage);
    });
    app.addHook('onSend', async (_request, reply) => {
      if (draining) reply.header('connection', 'close');
    });
  },
  { name: 'draining', dependencies: ['http-map'] },
);
