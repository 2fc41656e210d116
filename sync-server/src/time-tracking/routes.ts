import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { timeTrackingClaims } from '@platform/schema/organizations/claims';
import {
  exportTimeEntriesQuerySchema,
  timeTrackingPeopleQuerySchema,
  timeTrackingRequestSchema,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { requireClaim, sessionFirst } from '../plugins/session.ts';
import { actorOf } from '../sync/actor.ts';
import { reportUnreadableTo } from '../sync/read-document.ts';
import { exportPayrollCsv, timeTrackingPeople } from './time-tracking-reports.service.ts';
import { runTimeTrackingAction } from './time-tracking.service.ts';

/** spec §7 POST /api/time-tracking: one endpoint, the operation named by `action`. */
export async function timeTrackingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Signed in first (sessionFirst): a caller without a session learns nothing about the input's
  // shape; the claim is then checked in the organisation the input names.
  api.post(
    '/api/time-tracking',
    { schema: { body: timeTrackingRequestSchema }, preValidation: sessionFirst },
    async (request) => {
      const input = request.body;
      const session = await requireClaim(request, input.orgId, timeTrackingClaims);
      return runTimeTrackingAction(app.db, await actorOf(app.db, session), input, {
        reportUnreadable: reportUnreadableTo(app, request),
      });
    },
  );

  // Ours: the team view's list of people (managers).
  api.get(
    '/api/time-tracking/people',
    { schema: { querystring: timeTrackingPeopleQuerySchema }, preValidation: sessionFirst },
    async (request) => {
      const { orgId } = request.query;
      const session = await requireClaim(request, orgId, timeTrackingClaims);
      return timeTrackingPeople(app.db, await actorOf(app.db, session), orgId);
    },
  );

  // Ours: the payroll export, a file the browser downloads.
  api.get(
    '/api/time-tracking/export.csv',
    { schema: { querystring: exportTimeEntriesQuerySchema }, preValidation: sessionFirst },
    async (request, reply) => {
      const query = request.query;
      const session = await requireClaim(request, query.orgId, timeTrackingClaims);
      const csv = await exportPayrollCsv(app.db, await actorOf(app.db, session), query, {
        reportUnreadable: reportUnreadableTo(app, request),
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('cache-control', 'no-store')
        .send(csv.body);
    },
  );
}
