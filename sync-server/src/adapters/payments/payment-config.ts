import { z } from 'zod';
import { processorKinds, type ProcessorKind } from '@platform/schema/payments/processor.zod';
import { resolveStripeConfig, stripeEnvShape, type StripeConfig } from './stripe-config.ts';

/** The processor's environment variables; config.ts spreads these into its schema. */
export const paymentEnvShape = {
  /**
   * sandbox, stripe or none (decision 0061). Unset: stripe when STRIPE_SECRET_KEY is set,
   * otherwise the sandbox — so `npm start` keeps its labelled practice payments.
   */
  PAYMENT_PROCESSOR: z
    .enum(processorKinds, { message: 'PAYMENT_PROCESSOR must be sandbox, stripe or none' })
    .optional(),
  ...stripeEnvShape,
};

type PaymentEnv = z.output<z.ZodObject<typeof paymentEnvShape>>;

export type PaymentConfig = { processor: ProcessorKind; stripe: StripeConfig };

/**
 * Which processor, and Stripe's settings when it is Stripe. Stripe's variables are read only for
 * Stripe: set beside another processor they are a mistake said at start (a deployment that
 * meant to take real cards must not quietly run the sandbox, or none). Problems, one line each.
 */
export function resolvePaymentConfig(
  e: PaymentEnv,
): { ok: true; config: PaymentConfig } | { ok: false; problems: string[] } {
  const stripe = resolveStripeConfig(e);
  if (!stripe.ok) return stripe;
  const processor = e.PAYMENT_PROCESSOR ?? (stripe.config ? 'stripe' : 'sandbox');
  if (processor === 'stripe' && !stripe.config) {
    return {
      ok: false,
      problems: [
        'PAYMENT_PROCESSOR: stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY (or choose sandbox or none)',
      ],
    };
  }
  if (processor !== 'stripe' && stripe.config) {
    return {
      ok: false,
      problems: [
        `STRIPE_SECRET_KEY: only read with PAYMENT_PROCESSOR=stripe, not ${processor}: unset one of them`,
      ],
    };
  }
  return { ok: true, config: { processor, stripe: stripe.config } };
}
