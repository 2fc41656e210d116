import type { FastifyInstance } from 'fastify';

/** Answers once the app is built, which happens only after migrations ran. */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ ok: true }));
}
