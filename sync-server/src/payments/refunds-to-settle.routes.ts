import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  refundIdParamsSchema,
  refundSettledSchema,
  refundsToSettleSchema,
} from '@platform/schema/payments/refunds-to-settle.zod';
import { requireSeller } from './payments.access.ts';
import { markRefundedOutside, refundsToSettle, retryRefund } from './refunds-to-settle.service.ts';

/** Refunds to settle at the point of sale (issue 16; refunds-to-settle.service.ts). */
export async function refundsToSettleRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/refunds-to-settle',
    { schema: { response: { 200: refundsToSettleSchema } } },
    async (request) => refundsToSettle(app.db, await requireSeller(request)),
  );
  api.post(
    '/api/refunds-to-settle/:id/retry',
    { schema: { params: refundIdParamsSchema, response: { 200: refundSettledSchema } } },
    async (request) =>
      retryRefund(app.db, app.jobs, await requireSeller(request), request.params.id),
  );
  api.post(
    '/api/refunds-to-settle/:id/refunded',
    { schema: { params: refundIdParamsSchema, response: { 200: refundSettledSchema } } },
    async (request) => markRefundedOutside(app.db, await requireSeller(request), request.params.id),
  );
}
