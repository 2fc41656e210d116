import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney } from '@platform/schema/payments/money';
import { orgFormat } from '@platform/schema/organizations/org-format';
import {
  refundsToSettleTexts as texts,
  type RefundToSettle,
} from '@platform/schema/payments/refunds-to-settle.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { getRefundsToSettle, settleRefund } from '../api/refunds-to-settle.ts';

const refundsKey = (orgId: string) => ['refunds-to-settle', orgId] as const;

/**
 * The point of sale's refunds to settle (issue 16): money owed back for a booking that the card
 * processor would not refund. Each is asked again, or — once the money went back another way —
 * marked refunded (asked first: it cannot be undone here). Server state: staff devices do not
 * replicate other people's payments.
 */
export function RefundsToSettle() {
  const user = useSignedInUser();
  const orgId = user.org?.id ?? '';
  const online = useOnlineStatus();
  const toast = useToast();
  const queryClient = useQueryClient();
  const format = orgFormat(user.org?.timezone);
  const [confirming, setConfirming] = useState<RefundToSettle | null>(null);
  const refunds = useQuery({
    queryKey: refundsKey(orgId),
    queryFn: ({ signal }) => getRefundsToSettle(signal),
  });
  const settle = useMutation({
    mutationFn: ({ id, how }: { id: string; how: 'retry' | 'refunded' }) => settleRefund(id, how),
    onSuccess: (answer) => {
      toast.success(answer.message);
      setConfirming(null);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: refundsKey(orgId) }),
  });
  const pendingId = settle.isPending ? settle.variables.id : null;

  return (
    <section className="packages-section" aria-labelledby="pos-refunds-heading">
      <h2 id="pos-refunds-heading">{texts.heading}</h2>
      <p className="packages-muted">{texts.intro}</p>
      {settle.isError && !confirming && (
        <FormNotice
          notice={{ tone: 'error', text: failureText(settle.error, 'Settling the refund') }}
        />
      )}
      {refunds.isPending ? (
        <p role="status" className="packages-muted">
          {texts.loading}
        </p>
      ) : refunds.isError ? (
        <LoadFailure
          error={refunds.error}
          what="Loading refunds to settle"
          onRetry={() => void refunds.refetch()}
        />
      ) : refunds.data.refunds.length === 0 ? (
        <p className="packages-muted">{texts.empty}</p>
      ) : (
        <ul className="refunds-to-settle">
          {refunds.data.refunds.map((refund) => (
            <li key={refund.id} className="refund-to-settle">
              <p>
                <strong>{formatMoney(refund.amountMinor, refund.currency)}</strong> to{' '}
                {refund.payerName}
                {refund.customerName !== refund.payerName ? ` (for ${refund.customerName})` : ''}
              </p>
              <p className="packages-muted">
                {refund.description}
                {refund.paidAt ? ` · paid ${format.dateTime(refund.paidAt)}` : ''} · refused{' '}
                {format.dateTime(refund.refusedAt)}
              </p>
              {refund.failureMessage && (
                <p className="packages-muted">The processor said: {refund.failureMessage}</p>
              )}
              <div className="button-row">
                <button
                  type="button"
                  className="button"
                  disabled={!online || settle.isPending}
                  aria-busy={pendingId === refund.id ? true : undefined}
                  aria-label={`${texts.retry}: ${formatMoney(refund.amountMinor, refund.currency)} to ${refund.payerName}`}
                  onClick={() => settle.mutate({ id: refund.id, how: 'retry' })}
                >
                  {texts.retry}
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={!online || settle.isPending}
                  aria-label={`${texts.markRefunded}: ${formatMoney(refund.amountMinor, refund.currency)} to ${refund.payerName}`}
                  onClick={() => {
                    settle.reset();
                    setConfirming(refund);
                  }}
                >
                  {texts.markRefunded}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {!online && refunds.data && refunds.data.refunds.length > 0 && (
        <p className="crm-offline" role="status">
          You are offline. Settling a refund needs a connection.
        </p>
      )}
      {confirming && (
        <Modal
          open
          onOpenChange={(open) => !open && !settle.isPending && setConfirming(null)}
          title="Mark this refund as made?"
          description={`${formatMoney(confirming.amountMinor, confirming.currency)} to ${confirming.payerName}, paid back outside the platform (cash or a transfer). The processor is not asked again, and this cannot be undone here.`}
        >
          <FormNotice
            notice={
              settle.isError
                ? { tone: 'error', text: failureText(settle.error, 'Settling the refund') }
                : null
            }
          />
          <div className="button-row modal-actions">
            <button
              type="button"
              className="button"
              disabled={settle.isPending}
              aria-busy={settle.isPending ? true : undefined}
              onClick={() => settle.mutate({ id: confirming.id, how: 'refunded' })}
            >
              {settle.isPending ? 'Saving…' : 'Yes, it was refunded'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={settle.isPending}
              onClick={() => setConfirming(null)}
              data-autofocus
            >
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
