import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { formatMoney } from '@platform/schema/payments/money';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { payForPlace, payOptions } from '../api/booking-pay.ts';
import { CardChoice, PayFooter, useCardChoice, type PayWith } from './card-choice.tsx';

export type PlaceToPay = {
  bookingId: string;
  customerUserId: string;
  occurrenceId: string;
  appointment: { typeId: string; staffUserId: string; startsAt: string } | null;
};

/**
 * Paying for a place by card when booking it (decision 0070): online only, like the Shop. The
 * payment is named when this opens, so Pay sent twice is charged once; once paid, `onPaid`
 * writes the booking request on the device, and the server's verdict replicates back — a place
 * it cannot keep is refunded.
 */
export function PlacePayment({
  orgId,
  priceMinor,
  currency,
  place,
  ready,
  onPaid,
  onCancel,
}: {
  orgId: string;
  priceMinor: number;
  currency: string;
  /** Null until the booking is chosen (an appointment's time). */
  place: PlaceToPay | null;
  ready: boolean;
  onPaid: () => Promise<void>;
  onCancel: () => void;
}) {
  const online = useOnlineStatus();
  const [checkoutId] = useState(() => crypto.randomUUID());
  const options = useQuery({
    queryKey: ['booking-pay-options', orgId],
    queryFn: ({ signal }) => payOptions(orgId, signal),
    enabled: online,
    retry: false,
  });
  const cards = options.data?.paymentMethods ?? [];
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const card = useCardChoice(cards[0]?.id ?? 'new', (payWith) => void pay(payWith));
  const noProcessor = options.data?.processor === 'none';
  const stripeEntry = options.data?.processor === 'stripe' && card.choice === 'new';
  const price = formatMoney(priceMinor, currency);

  async function pay(payWith: PayWith) {
    if (paying || !place) return;
    setFailure(null);
    setPaying(true);
    try {
      const result = await payForPlace({ orgId, checkoutId, ...place, ...payWith });
      if (result.paid) await onPaid();
      else setFailure(`${chargeFlowMessages.chargeInvalid} ${result.message}`);
    } catch (error) {
      setFailure(
        error instanceof ApiError && error.status < 500
          ? error.message
          : !online
            ? failureText(error, 'Paying')
            : chargeFlowMessages.chargeFailed,
      );
    } finally {
      setPaying(false);
    }
  }

  return (
    <form className="place-payment" onSubmit={card.submit} noValidate aria-label="Payment">
      <p>
        <strong>{price}</strong>, paid by card now. If the place cannot be kept for you, or you
        cancel in time, the money goes back to the card.
      </p>
      {!online ? (
        <p className="form-error" role="alert">
          You are offline. Paying needs a connection: book this when you are back online.
        </p>
      ) : options.isPending ? (
        <p role="status" className="field-hint">
          Loading your cards…
        </p>
      ) : options.isError ? (
        <p className="form-error" role="alert">
          {failureText(options.error, 'Loading your cards')}
        </p>
      ) : noProcessor ? (
        <NoProcessorNotice detail="Paying here is not possible for now: nothing can be charged." />
      ) : (
        <CardChoice
          name="place-card"
          cards={cards}
          processor={options.data.processor}
          state={card}
          onStripePaymentMethod={(id) => void pay({ processorPaymentMethodId: id })}
        />
      )}
      <PayFooter
        failure={failure}
        paying={paying}
        stripeEntry={stripeEntry}
        disabled={!online || !ready || !options.data || noProcessor}
        label={`Pay ${price} and book`}
        cancelLabel="Not now"
        onCancel={onCancel}
      />
    </form>
  );
}
