import {
  chargeContextSchema,
  paymentMethodSchema,
  runChargeResponseSchema,
  todaysSalesSchema,
  totalChargeResponseSchema,
  type AddPaymentMethodRequest,
  type ChargeContext,
  type PaymentMethodView,
  type RunChargeResponse,
  type TodaysSales,
  type TotalChargeRequest,
  type TotalChargeResponse,
} from '@platform/schema/payments/charge.zod';
import { api } from '../../../lib/api.ts';

const customerPath = (rosterId: string) => `/api/charges/customers/${encodeURIComponent(rosterId)}`;

/** What the charge modal offers for one customer (claim manage-point-of-sale). */
export function getChargeContext(rosterId: string, signal?: AbortSignal): Promise<ChargeContext> {
  return api(customerPath(rosterId), {
    schema: chargeContextSchema,
    ...(signal ? { signal } : {}),
  });
}

/** A typed card (the sandbox) or Stripe's PaymentMethod (decision 0063). */
export function addCard(
  rosterId: string,
  card: AddPaymentMethodRequest,
): Promise<PaymentMethodView> {
  return api(`${customerPath(rosterId)}/payment-methods`, {
    json: card,
    schema: paymentMethodSchema,
  });
}

/** spec §4 Continue. */
export function totalCharge(request: TotalChargeRequest): Promise<TotalChargeResponse> {
  return api('/api/charges/total', { json: request, schema: totalChargeResponseSchema });
}

/** spec §4 Run charge: the same invoice however often it is sent. */
export function runCharge(invoiceId: string): Promise<RunChargeResponse> {
  return api('/api/charges/run', { json: { invoiceId }, schema: runChargeResponseSchema });
}

/** The point of sale's list of today's sales (claim manage-point-of-sale). */
export function getTodaysSales(signal?: AbortSignal): Promise<TodaysSales> {
  return api('/api/charges/today', { schema: todaysSalesSchema, ...(signal ? { signal } : {}) });
}
