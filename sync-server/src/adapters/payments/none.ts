import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { NO_PROCESSOR_CODE } from '@platform/schema/payments/processor.zod';
import { Conflict } from '../../plugins/domain-errors.ts';
import type { PaymentProcessor } from './port.ts';

/**
 * spec §8 "Missing processor: 'Payment processing not available'" (decision 0061). A deployment
 * state, not a passing outage: 409 with a code, never 503 with a retry hint — trying again
 * changes nothing until the deployment names a processor.
 */
export class PaymentProcessingUnavailable extends Conflict {
  constructor() {
    super(chargeFlowMessages.noProcessor);
  }
  override toBody() {
    return { error: this.name, code: NO_PROCESSOR_CODE, message: this.message };
  }
}

/** A processor that takes cards and charges: the sandbox or Stripe. */
export type LivePaymentProcessor = PaymentProcessor & { readonly kind: 'sandbox' | 'stripe' };

/**
 * The processor, when the deployment has one; otherwise the spec's answer. Every route that
 * would take or charge a card asks this first, before anything is written.
 */
export function requirePaymentProcessing(processor: PaymentProcessor): LivePaymentProcessor {
  if (processor.kind === 'none') throw new PaymentProcessingUnavailable();
  return processor as LivePaymentProcessor;
}

const unavailable = async (): Promise<never> => {
  throw new PaymentProcessingUnavailable();
};

/**
 * PAYMENT_PROCESSOR=none: no card is kept, nothing is charged. Routes refuse first
 * (requirePaymentProcessing); this adapter is the net under them, so a path that forgot to ask
 * still answers the spec's words instead of charging or failing with a 500.
 */
export function noPaymentProcessor(): PaymentProcessor {
  return {
    kind: 'none',
    createProduct: unavailable,
    saveCard: unavailable,
    charge: unavailable,
    refund: unavailable,
    startSubscription: unavailable,
    useCardForSubscription: unavailable,
    cancelSubscriptionAtPeriodEnd: unavailable,
  };
}
