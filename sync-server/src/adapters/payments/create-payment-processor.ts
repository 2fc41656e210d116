import type { Db } from '../../db/open-database.ts';
import { noPaymentProcessor } from './none.ts';
import type { PaymentConfig } from './payment-config.ts';
import type { PaymentProcessor } from './port.ts';
import { sandboxProcessor } from './sandbox.ts';
import { createStripeClient, stripeProcessor, withOutagesAsUnavailable } from './stripe.ts';

/** The adapter the configuration names (PAYMENT_PROCESSOR, decision 0061). */
export function createPaymentProcessor(config: PaymentConfig, db: Db): PaymentProcessor {
  if (config.processor === 'none') return noPaymentProcessor();
  if (config.processor === 'sandbox' || !config.stripe) return sandboxProcessor(db);
  return withOutagesAsUnavailable(stripeProcessor(db, createStripeClient(config.stripe)));
}
