import type { FastifyInstance } from 'fastify';
import { checkReadiness } from '../db/readiness.ts';
import { sendRetryLater } from '../plugins/http-map.ts';

/**
 * Liveness and readiness, for the orchestrator and load balancer. /healthz says the process
 * answers (restart it if not) and never touches the database: an outage must not get healthy
 * servers restarted. /readyz says it can serve now — database reachable, migrations applied —
 * and 503 with a retry hint otherwise, so traffic goes elsewhere meanwhile.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ ok: true }));

  app.get('/readyz', async (_request, reply) => {
    const readiness = await checkReadiness(app.db);
    if (!readiness.ready) return sendRetryLater(reply, `Not ready: ${readiness.reason}.`);
    return { ok: true };
  });
}
