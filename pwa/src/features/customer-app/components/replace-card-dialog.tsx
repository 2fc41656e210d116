import { useState, type FormEvent } from 'react';
import {
  readCardForm,
  type CardFormErrors,
  type NewCard,
} from '@platform/schema/payments/charge.zod';
import { CardEntryFrame } from '../../../components/card-entry-frame.tsx';
import { CardFields, emptyCardForm } from '../../../components/card-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { usePaymentProcessor } from '../../../lib/payment-processor.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { replaceCard } from '../api/shop.ts';
import { shopTexts } from '../shop-texts.ts';

/**
 * 'Replace card' (issue 15 "the card on file (replace it)"): the shared card form; the server
 * checks the card with its bank and makes it the card every renewing subscription of this
 * account uses. A declined card says the processor's reason and changes nothing. The new card
 * reaches Purchase history by replication, as everything it shows does.
 */
export function ReplaceCardDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const processor = usePaymentProcessor();
  const online = useOnlineStatus();
  const toast = useToast();
  const [form, setForm] = useState(emptyCardForm);
  const [errors, setErrors] = useState<CardFormErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readCardForm(form);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    void save({ card: read.card });
  }

  async function save(card: NewCard) {
    if (busy) return;
    setFailure(null);
    setBusy(true);
    try {
      const answer = await replaceCard({ orgId, ...card });
      if (answer.valid) {
        toast.success(answer.message);
        onClose();
      } else {
        setFailure(`${shopTexts.cardNotChanged} ${answer.message}`);
      }
    } catch (error) {
      setFailure(failureText(error, 'Replacing the card'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Replace card">
      {processor === 'none' ? (
        <div className="checkout">
          <NoProcessorNotice onClose={onClose} />
        </div>
      ) : (
        <form className="checkout" onSubmit={submit} noValidate>
          <p>Your subscriptions renew with the new card from now on.</p>
          {!online && (
            <p className="form-error" role="alert">
              {shopTexts.offlineCard}
            </p>
          )}
          {processor === 'stripe' ? (
            // Stripe's card entry (decision 0063): its own button saves the card.
            <CardEntryFrame
              purpose="save"
              onPaymentMethod={(id) => void save({ processorPaymentMethodId: id })}
            />
          ) : (
            <div className="card-form">
              <p className="sandbox-note" role="note">
                {shopTexts.sandbox}
              </p>
              <CardFields value={form} onChange={setForm} errors={errors} />
            </div>
          )}
          {failure && (
            <p className="form-error" role="alert">
              {failure}
            </p>
          )}
          {processor === 'stripe' && busy && <p role="status">Saving…</p>}
          <div className="button-row">
            {processor !== 'stripe' && (
              <button
                type="submit"
                className="button"
                disabled={!online || busy || processor !== 'sandbox'}
                aria-busy={busy || undefined}
              >
                {busy ? 'Saving…' : 'Save card'}
              </button>
            )}
            <button type="button" className="button button-secondary" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
