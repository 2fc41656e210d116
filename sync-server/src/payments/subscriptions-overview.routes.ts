import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { subscriptionsOverviewSchema } from '@platform/schema/payments/subscriptions-overview.zod';
import { requireSubscriptionsViewer } from './payments.access.ts';
import { subscriptionsOverview } from './subscriptions-overview.service.ts';

/** The owner's Subscriptions overview (/dashboard/org-subscription; issue 15). */
export async function subscriptionsOverviewRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/subscriptions',
    { schema: { response: { 200: subscriptionsOverviewSchema } } },
    async (request) =>
      subscriptionsOverview(
        app.db,
        await requireSubscriptionsViewer(request),
        app.paymentProcessor.kind,
      ),
  );
}
