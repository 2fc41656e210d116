import { useState } from 'react';
import { readCardForm, type CardFormErrors } from '@platform/schema/payments/charge.zod';
import { CardFields, emptyCardForm } from '../../../components/card-fields.tsx';
import { failureText, fieldErrorsOf } from '../../../lib/request-failure.ts';
import { catalogueTexts } from '../catalogue-texts.ts';

type Errors = CardFormErrors & { form?: string };

/**
 * The sandbox's own card form (issue 15): a card typed here is kept by the sandbox processor —
 * only the card networks' test numbers work, and the form says so. Not a <form>: it sits inside
 * the charge dialog's form, so its button saves the card without submitting the order. The
 * invitation's accept page pays with it directly (`submitLabel`).
 */
export function SandboxCardForm<T>({
  save,
  onSaved,
  onCancel,
  submitLabel = 'Save card',
  busyLabel = 'Saving card…',
}: {
  save: (card: { number: string; expMonth: number; expYear: number; cvc: string }) => Promise<T>;
  onSaved?: (result: T) => void;
  onCancel?: () => void;
  submitLabel?: string;
  busyLabel?: string;
}) {
  const [card, setCard] = useState(emptyCardForm);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit() {
    const read = readCardForm(card);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await save(read.card);
      onSaved?.(result);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(
        fields.length > 0
          ? { form: fields.map((f) => f.message).join(' ') }
          : { form: failureText(error, 'Saving the card') },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="card-form" aria-describedby="card-form-sandbox">
      <legend>New card</legend>
      <p id="card-form-sandbox" className="sandbox-note">
        {catalogueTexts.sandbox}
      </p>
      <CardFields value={card} onChange={setCard} errors={errors} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void submit()}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </fieldset>
  );
}
