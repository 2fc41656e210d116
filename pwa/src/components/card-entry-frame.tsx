import { useEffect, useRef, useState } from 'react';
import { cardEntryPath } from '@platform/schema/app/outside-services.rules';

/**
 * What the card-entry page tells the page that frames it (decision 0063): the PaymentMethod
 * Stripe made, and its own height. Posted to `location.origin` only, and read here only from
 * our own origin and from this frame's window.
 */
export type CardEntryMessage =
  | { type: 'card-entry:payment-method'; processorPaymentMethodId: string }
  | { type: 'card-entry:height'; height: number };

/** What the card-entry page's button says: paying now, or keeping the card. */
export type CardEntryPurpose = 'pay' | 'save';

function readMessage(data: unknown): CardEntryMessage | null {
  if (typeof data !== 'object' || data === null || !('type' in data)) return null;
  const message = data as Record<string, unknown>;
  if (
    message.type === 'card-entry:payment-method' &&
    typeof message.processorPaymentMethodId === 'string' &&
    /^pm_\w+$/.test(message.processorPaymentMethodId)
  ) {
    return { type: message.type, processorPaymentMethodId: message.processorPaymentMethodId };
  }
  if (message.type === 'card-entry:height' && Number.isFinite(message.height))
    return { type: message.type, height: message.height as number };
  return null;
}

/** The tallest the frame grows, whatever the page inside says (it is ours, but still a bound). */
const MAX_HEIGHT = 600;

/**
 * A card entered with Stripe (decision 0063): the card-entry page in a frame, where Stripe.js
 * runs in a page of its own (the one whose policy allows Stripe — same origin, so not an
 * isolation boundary); the form beside it gets only the PaymentMethod's id. Every card form
 * uses this one when the processor is Stripe (the sandbox keeps its own boxes, CardFields).
 */
export function CardEntryFrame({
  purpose,
  onPaymentMethod,
}: {
  purpose: CardEntryPurpose;
  onPaymentMethod: (processorPaymentMethodId: string) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(180);
  const latest = useRef(onPaymentMethod);
  useEffect(() => {
    latest.current = onPaymentMethod;
  }, [onPaymentMethod]);

  useEffect(() => {
    function listen(event: MessageEvent) {
      if (event.origin !== window.location.origin) return;
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const message = readMessage(event.data);
      if (message?.type === 'card-entry:height')
        setHeight(Math.min(MAX_HEIGHT, Math.max(80, Math.ceil(message.height))));
      if (message?.type === 'card-entry:payment-method')
        latest.current(message.processorPaymentMethodId);
    }
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);

  return (
    <iframe
      ref={frame}
      title="Card details"
      className="card-entry-frame"
      src={`${cardEntryPath}?purpose=${purpose}`}
      height={height}
    />
  );
}
