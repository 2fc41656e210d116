import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSubscriptionParamsSchema,
  cancelSubscriptionRequestSchema,
  cancelSubscriptionResponseSchema,
  replaceCardRequestSchema,
  replaceCardResponseSchema,
  shopBuyRequestSchema,
  shopBuyResponseSchema,
  shopQuoteRequestSchema,
  shopQuoteSchema,
} from '@platform/schema/payments/shop.zod';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import { sessionFirst } from '../plugins/session.ts';
import { replaceCardOnFile } from './card-on-file.service.ts';
import { cardToSave, newCardOf } from './new-card.ts';
import { cardLimits, chargeLimits } from './payments.limits.ts';
import { cancelAtPeriodEnd, requireBuyer, shopBuy, shopQuote } from './shop.service.ts';

/**
 * The customer's Shop and Purchase history calls (issue 15). The organisation is named in the
 * body and must be the one whose app the session is in (403 otherwise); nobody signed in gets
 * 401 before the body is read. What a customer bought reaches the device by replication.
 */
export async function shopRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = {
    db: app.db,
    processor: app.paymentProcessor,
    mailer: app.mailer,
    jobs: app.jobs,
  };

  api.post(
    '/api/shop/quote',
    {
      schema: { body: shopQuoteRequestSchema, response: { 200: shopQuoteSchema } },
      preValidation: sessionFirst,
    },
    async (request) =>
      shopQuote(
        app.db,
        app.paymentProcessor,
        await requireBuyer(app.db, request, request.body.orgId),
        request.body,
      ),
  );

  api.post(
    '/api/shop/buy',
    {
      schema: { body: shopBuyRequestSchema, response: { 200: shopBuyResponseSchema } },
      preValidation: sessionFirst,
    },
    async (request) => {
      const buyer = await requireBuyer(app.db, request, request.body.orgId);
      requirePaymentProcessing(app.paymentProcessor);
      await enforce(
        app.db,
        newCardOf(request.body)
          ? cardLimits(buyer.actorUserId, request.ip)
          : [{ rule: chargeLimits.runCharge, subject: buyer.actorUserId }],
      );
      return shopBuy(deps, buyer, request.body);
    },
  );

  // The card on file (decision 0064): the buyer's own, or a child's in a guardian's switched
  // session — as buying. A card form draws card testing: bounded as every card route is.
  api.post(
    '/api/shop/payment-method',
    {
      schema: { body: replaceCardRequestSchema, response: { 200: replaceCardResponseSchema } },
      preValidation: sessionFirst,
    },
    async (request) => {
      const buyer = await requireBuyer(app.db, request, request.body.orgId);
      requirePaymentProcessing(app.paymentProcessor);
      await enforce(app.db, cardLimits(buyer.actorUserId, request.ip));
      return replaceCardOnFile(deps, buyer, cardToSave(request.body));
    },
  );

  api.post(
    '/api/shop/subscriptions/:subscriptionId/cancel',
    {
      schema: {
        params: cancelSubscriptionParamsSchema,
        body: cancelSubscriptionRequestSchema,
        response: { 200: cancelSubscriptionResponseSchema },
      },
      preValidation: sessionFirst,
    },
    async (request) =>
      cancelAtPeriodEnd(
        deps,
        await requireBuyer(app.db, request, request.body.orgId),
        request.params.subscriptionId,
      ),
  );
}
