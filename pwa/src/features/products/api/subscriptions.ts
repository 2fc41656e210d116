import {
  subscriptionsOverviewSchema,
  type SubscriptionsOverview,
} from '@platform/schema/payments/subscriptions-overview.zod';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/subscriptions: every subscription of the session organisation's customers and which
 * processor takes its cards (manage-products or manage-point-of-sale).
 */
export function getSubscriptions(signal?: AbortSignal): Promise<SubscriptionsOverview> {
  return api('/api/subscriptions', {
    schema: subscriptionsOverviewSchema,
    ...(signal ? { signal } : {}),
  });
}
