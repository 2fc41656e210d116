import {
  refundSettledSchema,
  refundsToSettleSchema,
  type RefundsToSettle,
} from '@platform/schema/payments/refunds-to-settle.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/refunds-to-settle: refunds the processor refused (claim manage-point-of-sale). */
export function getRefundsToSettle(signal?: AbortSignal): Promise<RefundsToSettle> {
  return api('/api/refunds-to-settle', {
    schema: refundsToSettleSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Ask the processor again, or say the money went back another way. */
export function settleRefund(id: string, how: 'retry' | 'refunded'): Promise<{ message: string }> {
  return api(`/api/refunds-to-settle/${encodeURIComponent(id)}/${how}`, {
    json: {},
    schema: refundSettledSchema,
  });
}
