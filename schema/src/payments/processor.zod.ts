import { z } from 'zod';

/**
 * Which processor takes this deployment's cards (decision 0061): the sandbox (practice, labelled
 * so on every screen), Stripe, or none — then every route that would take a card or charge one
 * answers spec §8 'Payment processing not available' (chargeFlowMessages.noProcessor).
 */
export const processorKinds = ['sandbox', 'stripe', 'none'] as const;
export type ProcessorKind = (typeof processorKinds)[number];
export const processorKindSchema = z.enum(processorKinds);

/** The machine-readable code of the answer a money route gives without a processor. */
export const NO_PROCESSOR_CODE = 'payment-processing-not-available';

/**
 * GET /api/payment-processor: what a screen asks before it offers a card form — and, with
 * Stripe, the publishable key the card-entry page loads Stripe.js with (decision 0063).
 */
export const paymentProcessorResponseSchema = z.object({
  processor: processorKindSchema,
  stripePublishableKey: z.string().nullable(),
});
export type PaymentProcessorResponse = z.infer<typeof paymentProcessorResponseSchema>;
