import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addPaymentMethodRequestSchema,
  chargeContextSchema,
  paymentMethodSchema,
  rosterIdParamsSchema,
  runChargeRequestSchema,
  runChargeResponseSchema,
  todaysSalesSchema,
  totalChargeRequestSchema,
  totalChargeResponseSchema,
} from '@platform/schema/payments/charge.zod';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import { addressSubject, enforce } from '../rate-limits/rate-limits.ts';
import {
  addCustomerCard,
  chargeContext,
  runChargeAsSeller,
  todaysSales,
  totalForCustomer,
} from './charge-desk.service.ts';
import { requireSeller } from './payments.access.ts';
import { cardToSave } from './new-card.ts';
import { chargeLimits } from './payments.limits.ts';

/** Nothing is read from the request before the seller's claim is checked (403 before 400). */
const sellerFirst = async (request: FastifyRequest) => {
  await requireSeller(request);
};

/**
 * The charge flow's calls (spec §2 'Charge product or subscription', §4; issue 15), for staff
 * with manage-point-of-sale. Run charge answers 200 with `valid: false` and the reason when the
 * card is refused: that is the charge's result, not a failed request. Without a processor
 * (decision 0061) the context still answers — its `processor` says 'none', so the modal shows
 * 'Payment processing not available' — and every call that keeps a card or an order answers 409.
 */
export async function chargeRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const processor = app.paymentProcessor;

  api.get(
    '/api/charges/today',
    { schema: { response: { 200: todaysSalesSchema } } },
    async (request) => todaysSales(app.db, await requireSeller(request)),
  );

  api.get(
    '/api/charges/customers/:rosterId',
    {
      schema: { params: rosterIdParamsSchema, response: { 200: chargeContextSchema } },
      preValidation: sellerFirst,
    },
    async (request) =>
      chargeContext(app.db, processor, await requireSeller(request), request.params.rosterId),
  );

  api.post(
    '/api/charges/customers/:rosterId/payment-methods',
    {
      schema: {
        params: rosterIdParamsSchema,
        body: addPaymentMethodRequestSchema,
        response: { 201: paymentMethodSchema },
      },
      preValidation: sellerFirst,
    },
    async (request, reply) => {
      const seller = await requireSeller(request);
      requirePaymentProcessing(processor);
      await enforce(app.db, [
        { rule: chargeLimits.addCard, subject: seller.userId },
        { rule: chargeLimits.addCardPerAddress, subject: addressSubject(request.ip) },
      ]);
      const card = await addCustomerCard(
        app.db,
        processor,
        seller,
        request.params.rosterId,
        cardToSave('number' in request.body ? { card: request.body } : request.body),
      );
      return reply.code(201).send(card);
    },
  );

  api.post(
    '/api/charges/total',
    {
      schema: { body: totalChargeRequestSchema, response: { 200: totalChargeResponseSchema } },
      preValidation: sellerFirst,
    },
    async (request) => {
      const seller = await requireSeller(request);
      // Continue keeps an order only a processor could charge: without one, say so now.
      requirePaymentProcessing(processor);
      return totalForCustomer(app.db, seller, request.body);
    },
  );

  api.post(
    '/api/charges/run',
    {
      schema: { body: runChargeRequestSchema, response: { 200: runChargeResponseSchema } },
      preValidation: sellerFirst,
    },
    async (request) => {
      const seller = await requireSeller(request);
      requirePaymentProcessing(processor);
      await enforce(app.db, [{ rule: chargeLimits.runCharge, subject: seller.userId }]);
      return runChargeAsSeller(app.db, processor, seller, request.body.invoiceId, app.jobs);
    },
  );
}
