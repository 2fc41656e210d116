import {
  bookingPayOptionsSchema,
  bookingPayResponseSchema,
  type BookingPayOptions,
  type BookingPayRequest,
  type BookingPayResponse,
} from '@platform/schema/bookings/booking-pay.zod';
import { api } from '../../../lib/api.ts';

/** The payer's cards and the processor (paying for a place needs the network). */
export function payOptions(orgId: string, signal?: AbortSignal): Promise<BookingPayOptions> {
  return api('/api/bookings/pay/options', {
    json: { orgId },
    schema: bookingPayOptionsSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Pays for a place before its request is written; charged once per checkout (decision 0070). */
export function payForPlace(request: BookingPayRequest): Promise<BookingPayResponse> {
  return api('/api/bookings/pay', { json: request, schema: bookingPayResponseSchema });
}
