import { useState } from 'react';
import type { NewCard } from '@platform/schema/payments/charge.zod';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import { CardEntryFrame, type CardEntryPurpose } from '../../../components/card-entry-frame.tsx';
import { failureText } from '../../../lib/request-failure.ts';
import { SandboxCardForm } from './sandbox-card-form.tsx';

/**
 * A new card at the desk or on an invitation (issue 15): the sandbox's own boxes, or with Stripe
 * the card-entry page in a frame (decision 0063), whose button hands over Stripe's
 * PaymentMethod — then `save` runs at once, as the sandbox form's button does.
 */
export function NewCardForm<T>({
  processor,
  save,
  onSaved,
  onCancel,
  purpose = 'save',
  submitLabel,
  busyLabel,
}: {
  processor: Exclude<ProcessorKind, 'none'>;
  save: (card: NewCard) => Promise<T>;
  onSaved?: (result: T) => void;
  onCancel?: () => void;
  purpose?: CardEntryPurpose;
  submitLabel?: string;
  busyLabel?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (processor === 'sandbox') {
    return (
      <SandboxCardForm
        save={(card) => save({ card })}
        {...(onSaved ? { onSaved } : {})}
        {...(onCancel ? { onCancel } : {})}
        {...(submitLabel ? { submitLabel } : {})}
        {...(busyLabel ? { busyLabel } : {})}
      />
    );
  }

  async function saveMethod(processorPaymentMethodId: string) {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      onSaved?.(await save({ processorPaymentMethodId }));
    } catch (error) {
      setFailure(failureText(error, 'Saving the card'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="card-form" aria-busy={busy || undefined}>
      <legend>New card</legend>
      <CardEntryFrame purpose={purpose} onPaymentMethod={(id) => void saveMethod(id)} />
      {busy && <p role="status">{busyLabel ?? 'Saving card…'}</p>}
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      {onCancel && (
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
    </fieldset>
  );
}
