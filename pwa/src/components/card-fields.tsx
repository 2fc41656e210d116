import type { CardFormErrors, CardFormText } from '@platform/schema/payments/charge.zod';
import { TextField } from './form-fields.tsx';

export const emptyCardForm: CardFormText = { number: '', expiry: '', cvc: '' };

/** A card's three boxes (number, expiry, security code), read by `readCardForm`. */
export function CardFields({
  value,
  onChange,
  errors,
}: {
  value: CardFormText;
  onChange: (next: CardFormText) => void;
  errors: CardFormErrors;
}) {
  const set = (field: keyof CardFormText) => (event: { target: { value: string } }) =>
    onChange({ ...value, [field]: event.target.value });
  return (
    <>
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        value={value.number}
        onChange={set('number')}
        error={errors.number}
      />
      <div className="card-form-row">
        <TextField
          label="Expiry (MM/YY)"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          value={value.expiry}
          onChange={set('expiry')}
          error={errors.expiry}
        />
        <TextField
          label="Security code"
          inputMode="numeric"
          autoComplete="cc-csc"
          value={value.cvc}
          onChange={set('cvc')}
          error={errors.cvc}
        />
      </div>
    </>
  );
}
