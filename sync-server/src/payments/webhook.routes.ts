import type { FastifyInstance } from 'fastify';
import { verifiedStripeEvent } from '../adapters/payments/stripe.ts';
import { ValidationFailed } from '../plugins/domain-errors.ts';
import { receiveProcessorEvent } from './webhook.service.ts';

export const webhookMessages = {
  badSignature: 'The webhook signature is missing or does not match.',
} as const;

/**
 * POST /api/stripe/webhook (decision 0057): only when Stripe is the processor — with the
 * sandbox there is no such route (404). Stripe signs the exact bytes it sent, so this plugin's
 * one route keeps the body as a Buffer (its own content-type parser; the app's JSON parser
 * stays for every other route). No session, no CSRF origin check: the caller is Stripe, proven
 * by the signature, and an unsigned or wrongly signed body is refused before anything is read.
 */
export async function stripeWebhookRoutes(app: FastifyInstance) {
  const stripe = app.config.stripe;
  if (app.paymentProcessor.kind !== 'stripe' || !stripe) return;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/api/stripe/webhook', { config: { signedByCaller: true } }, async (request) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['stripe-signature'];
    const event = verifiedStripeEvent(
      body,
      typeof signature === 'string' ? signature : undefined,
      stripe.webhookSecret,
    );
    if (!event) throw new ValidationFailed(webhookMessages.badSignature);
    const { replay, outcome } = await receiveProcessorEvent(app.db, app.jobs, event);
    if (outcome.startsWith('ignored: not ')) {
      // Signed by Stripe yet not what we read: our reading is out of date, not the event.
      request.log.error(
        { eventId: event.id, type: event.type, outcome },
        'processor event not understood',
      );
    }
    return { received: true, replay };
  });
}
