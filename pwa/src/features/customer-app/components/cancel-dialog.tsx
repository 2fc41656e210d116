import { useState } from 'react';
import type { PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { cancelSubscription } from '../api/shop.ts';

/** Cancel at the end of the paid period: confirmed, needs the network, emailed by the server. */
export function CancelDialog({
  orgId,
  purchase,
  endsOn,
  onClose,
}: {
  orgId: string;
  purchase: PurchaseDoc;
  endsOn: string | null;
  onClose: () => void;
}) {
  const online = useOnlineStatus();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await cancelSubscription(orgId, purchase.id);
      toast.success(answer.message);
      onClose();
    } catch (error) {
      setFailure(failureText(error, 'Cancelling'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Cancel ${purchase.productName}?`}
    >
      <div className="checkout">
        <p>
          {endsOn
            ? `It ends on ${endsOn}, at the end of what you have paid for. Nothing more is charged.`
            : 'It ends at the end of what you have paid for. Nothing more is charged.'}{' '}
          You get an email confirming it.
        </p>
        {!online && (
          <p className="form-error" role="alert">
            You are offline. Cancelling needs a connection.
          </p>
        )}
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => void confirm()}
            disabled={busy || !online}
            aria-busy={busy || undefined}
          >
            {busy ? 'Cancelling…' : 'Cancel subscription'}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Keep it
          </button>
        </div>
      </div>
    </Modal>
  );
}
