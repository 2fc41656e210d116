import { useState } from 'react';
import {
  cardInputSchema,
  cardMessages,
  parseCardExpiry,
} from '@platform/schema/payments/charge.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { failureText, fieldErrorsOf } from '../../../lib/request-failure.ts';
import { catalogueTexts } from '../catalogue-texts.ts';

type Errors = Partial<Record<'number' | 'expiry' | 'cvc' | 'form', string>>;

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
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit() {
    const date = parseCardExpiry(expiry);
    const parsed = cardInputSchema.safeParse({
      number,
      expMonth: date?.expMonth ?? 0,
      expYear: date?.expYear ?? 0,
      cvc: cvc.trim(),
    });
    if (!parsed.success || !date) {
      const next: Errors = {};
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field =
          issue.path[0] === 'expMonth' || issue.path[0] === 'expYear' ? 'expiry' : issue.path[0];
        if (field === 'number' || field === 'expiry' || field === 'cvc')
          next[field] ??= issue.message;
      }
      if (!date) next.expiry = cardMessages.expiry;
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await save(parsed.data);
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
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        error={errors.number}
      />
      <div className="card-form-row">
        <TextField
          label="Expiry (MM/YY)"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          error={errors.expiry}
        />
        <TextField
          label="Security code"
          inputMode="numeric"
          autoComplete="cc-csc"
          value={cvc}
          onChange={(event) => setCvc(event.target.value)}
          error={errors.cvc}
        />
      </div>
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
