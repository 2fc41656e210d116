import type { FastifyInstance } from 'fastify';
import { timeTrackingClaims } from '@platform/schema/organizations/claims';
import {
  exportTimeEntriesQuerySchema,
  timeTrackingPeopleQuerySchema,
  timeTrackingRequestSchema,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { requireClaim, requireSession } from '../plugins/session.ts';
import { actorOf } from '../sync/actor.ts';
import { reportUnreadableTo } from '../sync/read-document.ts';
import { exportPayrollCsv, timeTrackingPeople } from './time-tracking-reports.service.ts';
import { runTimeTrackingAction } from './time-tracking.service.ts';

/** spec §7 POST /api/time-tracking: one endpoint, the operation named by `action`. */
export async function timeTrackingRoutes(app: FastifyInstance) {
  app.post('/api/time-tracking', async (request) => {
    // Signed in first: a caller without a session learns nothing about the body's shape.
    await requireSession(request);
    const input = timeTrackingRequestSchema.parse(request.body);
    const session = await requireClaim(request, input.orgId, timeTrackingClaims);
    return runTimeTrackingAction(app.db, await actorOf(app.db, session), input, {
      reportUnreadable: reportUnreadableTo(app, request),
    });
  });

  // Ours: the team view's list of people (managers).
  app.get('/api/time-tracking/people', async (request) => {
    await requireSession(request);
    const { orgId } = timeTrackingPeopleQuerySchema.parse(request.query);
    const session = await requireClaim(request, orgId, timeTrackingClaims);
    return timeTrackingPeople(app.db, await actorOf(app.db, session), orgId);
  });

  // Ours: the payroll export, a file the browser downloads.
  app.get('/api/time-tracking/export.csv', async (request, reply) => {
    await requireSession(request);
    const query = exportTimeEntriesQuerySchema.parse(request.query);
    const session = await requireClaim(request, query.orgId, timeTrackingClaims);
    const csv = await exportPayrollCsv(app.db, await actorOf(app.db, session), query, {
      reportUnreadable: reportUnreadableTo(app, request),
    });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csv.filename}"`)
      .header('cache-control', 'no-store')
      .send(csv.body);
  });
}
