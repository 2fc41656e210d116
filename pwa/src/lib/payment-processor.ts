import { useQuery } from '@tanstack/react-query';
import {
  paymentProcessorResponseSchema,
  type ProcessorKind,
} from '@platform/schema/payments/processor.zod';
import { api } from './api.ts';
import { retryServerFaults } from './query-retry.ts';

/**
 * Which processor takes cards (decision 0061), for a screen that offers a card form or a charge
 * before it has any other answer that says so: the sandbox is labelled, none shows 'Payment
 * processing not available' instead of a card form. A deployment setting: asked once a session.
 */
export function usePaymentProcessor(): ProcessorKind | null {
  const answer = useQuery({
    queryKey: ['payment-processor'],
    queryFn: ({ signal }) =>
      api('/api/payment-processor', { schema: paymentProcessorResponseSchema, signal }),
    staleTime: Infinity,
    retry: retryServerFaults,
  });
  return answer.data?.processor ?? null;
}
