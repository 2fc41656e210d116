import type { FastifyInstance } from 'fastify';
import { timeTrackingClaims } from '@platform/schema/organizations/claims';
import { timeTrackingRequestSchema } from '@platform/schema/time-tracking/time-tracking.zod';
import { requireClaim, requireSession } from '../plugins/session.ts';
import { actorOf } from '../sync/actor.ts';
import { runTimeTrackingAction } from './time-tracking.service.ts';

/** spec §7 POST /api/time-tracking: one endpoint, the operation named by `action`. */
export async function timeTrackingRoutes(app: FastifyInstance) {
  app.post('/api/time-tracking', async (request) => {
    // Signed in first: a caller without a session learns nothing about the body's shape.
    await requireSession(request);
    const input = timeTrackingRequestSchema.parse(request.body);
    const session = await requireClaim(request, input.orgId, timeTrackingClaims);
    return runTimeTrackingAction(app.db, await actorOf(app.db, session), input);
  });
}
