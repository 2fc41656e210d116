import type {
  CardFormErrors,
  CardFormText,
  PaymentMethodView,
} from '@platform/schema/payments/charge.zod';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import { CardEntryFrame } from '../../../components/card-entry-frame.tsx';
import { CardFields } from '../../../components/card-fields.tsx';
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
  choice,
  onChoose,
  cardForm,
  onCardForm,
  cardErrors,
  onStripePaymentMethod,
}: {
  /** The radio group's name (unique on the page). */
  name: string;
  cards: readonly PaymentMethodView[];
  processor: ProcessorKind | undefined;
  /** A card's id, or 'new'. */
  choice: string;
  onChoose: (choice: string) => void;
  cardForm: CardFormText;
  onCardForm: (form: CardFormText) => void;
  cardErrors: CardFormErrors;
  onStripePaymentMethod: (processorPaymentMethodId: string) => void;
}) {
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
