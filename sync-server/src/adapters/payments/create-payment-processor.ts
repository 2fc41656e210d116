import type { Db } from '../../db/open-database.ts';
import type { PaymentProcessor } from './port.ts';
import { sandboxProcessor } from './sandbox.ts';
import type { StripeConfig } from './stripe-config.ts';
import { createStripeClient, stripeProcessor, withOutagesAsUnavailable } from './stripe.ts';

/** The adapter the configuration names: Stripe with a secret key, else the sandbox. */
export function createPaymentProcessor(stripe: StripeConfig, db: Db): PaymentProcessor {
  if (!stripe) return sandboxProcessor(db);
  return withOutagesAsUnavailable(stripeProcessor(db, createStripeClient(stripe)));
}
