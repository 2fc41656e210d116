import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingPayOptionsRequestSchema,
  bookingPayOptionsSchema,
  bookingPayRequestSchema,
  bookingPayResponseSchema,
} from '@platform/schema/bookings/booking-pay.zod';
import { payerCards } from '../payments/booking-payments.service.ts';
import { requireBuyer } from '../payments/shop.service.ts';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import { cardLimits, chargeLimits } from '../payments/payments.limits.ts';
import { newCardOf } from '../payments/new-card.ts';
import { sessionFirst } from '../plugins/session.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import { payForBooking, requireBookingPayer } from './booking-pay.service.ts';

/**
 * Bookings are replicated writes (decision 0066); the one call of their own is paying for a
 * place by card before its request is written (decision 0070) — online, like the Shop.
 */
export async function bookingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/bookings/pay/options',
    {
      schema: {
        body: bookingPayOptionsRequestSchema,
        response: { 200: bookingPayOptionsSchema },
      },
      preValidation: sessionFirst,
    },
    async (request) =>
      payerCards(
        app.db,
        app.paymentProcessor,
        await requireBuyer(app.db, request, request.body.orgId),
      ),
  );

  api.post(
    '/api/bookings/pay',
    {
      schema: { body: bookingPayRequestSchema, response: { 200: bookingPayResponseSchema } },
      preValidation: sessionFirst,
    },
    async (request) => {
      const payer = await requireBookingPayer(app.db, request, request.body);
      requirePaymentProcessing(app.paymentProcessor);
      await enforce(
        app.db,
        newCardOf(request.body)
          ? cardLimits(payer.actorUserId, request.ip)
          : [{ rule: chargeLimits.runCharge, subject: payer.actorUserId }],
      );
      return payForBooking(
        { db: app.db, processor: app.paymentProcessor, jobs: app.jobs },
        payer,
        request.body,
      );
    },
  );
}
