import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CardElement, Elements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe, type StripeCardElement } from '@stripe/stripe-js';
import { paymentProcessorResponseSchema } from '@platform/schema/payments/processor.zod';
import type { CardEntryMessage, CardEntryPurpose } from '../../../components/card-entry-frame.tsx';
import { api } from '../../../lib/api.ts';

export const cardEntryTexts = {
  label: 'Card number, expiry date and security code',
  unavailable: 'Card entry is not available: the payment processor is not Stripe.',
  loadFailed: 'The card form could not be loaded. Check the connection, then close and try again.',
  unread: 'The card could not be read. Check it and try again.',
  submit: { pay: 'Pay with this card', save: 'Save this card' } satisfies Record<
    CardEntryPurpose,
    string
  >,
} as const;

/** Only to the page that frames this one, and only if it is ours. */
function tellParent(message: CardEntryMessage) {
  window.parent.postMessage(message, window.location.origin);
}

/** The frame follows this page's height, so nothing inside it scrolls. */
function useReportedHeight() {
  useEffect(() => {
    const report = () =>
      tellParent({ type: 'card-entry:height', height: document.documentElement.scrollHeight });
    const observer = new ResizeObserver(report);
    observer.observe(document.body);
    report();
    return () => observer.disconnect();
  }, []);
}

/**
 * /payments/card-entry (decision 0063): Stripe's Card Element in a page of its own, always
 * loaded from the server with a policy that allows Stripe (outside-services.rules.ts), framed by
 * the card forms. It creates the PaymentMethod and tells the framing page its id; the number
 * never leaves Stripe's own frame. Stripe's messages (a wrong number, an expired card) show here.
 */
export function CardEntryPage() {
  const purpose: CardEntryPurpose =
    new URLSearchParams(window.location.search).get('purpose') === 'save' ? 'save' : 'pay';
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useReportedHeight();

  useEffect(() => {
    const failed = () => {
      setProblem(cardEntryTexts.loadFailed);
      return null;
    };
    api('/api/payment-processor', { schema: paymentProcessorResponseSchema })
      .then(({ stripePublishableKey }) => {
        if (stripePublishableKey) setStripe(loadStripe(stripePublishableKey).catch(failed));
        else setProblem(cardEntryTexts.unavailable);
      })
      .catch(failed);
  }, []);

  return (
    <main className="card-entry">
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {stripe && (
        <Elements stripe={stripe}>
          <CardEntryForm purpose={purpose} />
        </Elements>
      )}
    </main>
  );
}

function CardEntryForm({ purpose }: { purpose: CardEntryPurpose }) {
  const stripe = useStripe();
  const card = useRef<StripeCardElement | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !card.current || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await stripe.createPaymentMethod({ type: 'card', card: card.current });
      if (result.error) setError(result.error.message ?? cardEntryTexts.unread);
      else
        tellParent({
          type: 'card-entry:payment-method',
          processorPaymentMethodId: result.paymentMethod.id,
        });
    } catch {
      setError(cardEntryTexts.loadFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card-form" onSubmit={(event) => void submit(event)} noValidate>
      <div role="group" aria-labelledby="card-entry-label" aria-describedby="card-entry-error">
        <p id="card-entry-label" className="field-label">
          {cardEntryTexts.label}
        </p>
        <CardElement
          className="card-entry__element"
          options={{ hidePostalCode: true }}
          onReady={(element) => {
            card.current = element;
            setReady(true);
          }}
          onChange={(change) => setError(change.error?.message ?? null)}
        />
      </div>
      <p id="card-entry-error" className="field-error" role="alert">
        {error}
      </p>
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={!ready || busy}
          aria-busy={busy || undefined}
        >
          {busy ? 'Checking the card…' : cardEntryTexts.submit[purpose]}
        </button>
      </div>
    </form>
  );
}
