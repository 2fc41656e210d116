import {
  cancelSubscriptionResponseSchema,
  replaceCardResponseSchema,
  type ReplaceCardRequest,
  type ReplaceCardResponse,
  shopBuyResponseSchema,
  shopQuoteSchema,
  type ShopBuyRequest,
  type ShopBuyResponse,
  type ShopQuote,
  type ShopQuoteRequest,
} from '@platform/schema/payments/shop.zod';
import { api } from '../../../lib/api.ts';

/** What paying would charge now, and the customer's cards (paying needs the network). */
export function quote(request: ShopQuoteRequest, signal?: AbortSignal): Promise<ShopQuote> {
  return api('/api/shop/quote', {
    json: request,
    schema: shopQuoteSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The checkout's order, paid once however often this is sent. */
export function buy(request: ShopBuyRequest): Promise<ShopBuyResponse> {
  return api('/api/shop/buy', { json: request, schema: shopBuyResponseSchema });
}

export function cancelSubscription(orgId: string, subscriptionId: string) {
  return api(`/api/shop/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`, {
    json: { orgId },
    schema: cancelSubscriptionResponseSchema,
  });
}

/** The buyer's new card on file: every renewing subscription of theirs renews with it. */
export function replaceCard(request: ReplaceCardRequest): Promise<ReplaceCardResponse> {
  return api('/api/shop/payment-method', { json: request, schema: replaceCardResponseSchema });
}
