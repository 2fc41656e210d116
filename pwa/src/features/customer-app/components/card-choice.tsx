import { useState, type FormEvent } from 'react';
import {
  readCardForm,
  type CardFormErrors,
  type NewCard,
  type PaymentMethodView,
} from '@platform/schema/payments/charge.zod';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import { CardEntryFrame } from '../../../components/card-entry-frame.tsx';
import { CardFields, emptyCardForm } from '../../../components/card-fields.tsx';
import { shopTexts } from '../shop-texts.ts';

/**
 * Which card pays, in the customer's app (the Shop's checkout, paying for a place): one of
 * theirs, or a new one — typed into the sandbox's form, or with Stripe entered in its own frame
 * (decision 0063), whose button pays with the PaymentMethod it made.
 */
export function CardChoice({
  name,
  cards,
  processor,
  state,
  onStripePaymentMethod,
}: {
  /** The radio group's name (unique on the page). */
  name: string;
  cards: readonly PaymentMethodView[];
  processor: ProcessorKind | undefined;
  /** useCardChoice's state: the card chosen (an id, or 'new') and the new card's boxes. */
  state: CardChoiceState;
  onStripePaymentMethod: (processorPaymentMethodId: string) => void;
}) {
  const { choice, choose: onChoose, cardForm, setCardForm: onCardForm, cardErrors } = state;
  const stripeEntry = processor === 'stripe' && choice === 'new';
  return (
    <fieldset className="choice-group">
      <legend>Card</legend>
      {cards.map((c) => (
        <label key={c.id}>
          <input
            type="radio"
            name={name}
            checked={choice === c.id}
            onChange={() => onChoose(c.id)}
          />{' '}
          {c.brand} •••• {c.last4}
        </label>
      ))}
      {cards.length > 0 && (
        <label>
          <input
            type="radio"
            name={name}
            checked={choice === 'new'}
            onChange={() => onChoose('new')}
          />{' '}
          A new card
        </label>
      )}
      {stripeEntry ? (
        <CardEntryFrame purpose="pay" onPaymentMethod={onStripePaymentMethod} />
      ) : (
        choice === 'new' && (
          <div className="card-form">
            <p className="sandbox-note" role="note">
              {shopTexts.sandbox}
            </p>
            <CardFields value={cardForm} onChange={onCardForm} errors={cardErrors} />
          </div>
        )
      )}
    </fieldset>
  );
}

export type PayWith = { paymentMethodId: string } | NewCard;
type CardChoiceState = ReturnType<typeof useCardChoice>;

/**
 * The card choice's state: which card (`preferred` until the person picks one — a saved card
 * or 'new'), the new card's boxes and their errors, and the form's submit, which reads the
 * new card (showing what is wrong) before `pay` is called.
 */
export function useCardChoice(preferred: string, pay: (payWith: PayWith) => void) {
  const [picked, setPicked] = useState<string | null>(null);
  const choice = picked ?? preferred;
  const [cardForm, setCardForm] = useState(emptyCardForm);
  const [cardErrors, setCardErrors] = useState<CardFormErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice !== 'new') return pay({ paymentMethodId: choice });
    const read = readCardForm(cardForm);
    if (!read.ok) return setCardErrors(read.errors);
    setCardErrors({});
    pay({ card: read.card });
  };
  return { choice, choose: setPicked, cardForm, setCardForm, cardErrors, submit };
}

/**
 * What follows the card choice: the failure, 'Paying…' while Stripe's own button pays, and the
 * form's Pay button (not with Stripe's frame, which has its own) beside the way out.
 */
export function PayFooter({
  failure,
  paying,
  stripeEntry,
  disabled,
  label,
  cancelLabel,
  onCancel,
}: {
  failure: string | null;
  paying: boolean;
  stripeEntry: boolean;
  disabled: boolean;
  label: string;
  cancelLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      {stripeEntry && paying && <p role="status">Paying…</p>}
      <div className="button-row">
        {!stripeEntry && (
          <button
            type="submit"
            className="button"
            disabled={disabled || paying}
            aria-busy={paying || undefined}
          >
            {paying ? 'Paying…' : label}
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </>
  );
}
