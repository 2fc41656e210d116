import { useMemo, useState } from 'react';
import { formatMoney } from '@platform/schema/payments/money';
import {
  invoiceDocSchema,
  purchaseDocSchema,
  type PurchaseDoc,
} from '@platform/schema/payments/purchase-docs.zod';
import { rosterItemDocSchema } from '@platform/schema/roster/roster-item.zod';
import {
  bookingPaymentDocSchema,
  type BookingPaymentDoc,
} from '@platform/schema/bookings/booking-pay.zod';
import { cardName, isRenewing } from '@platform/schema/payments/card-on-file.rules';
import { ChargeLines } from '../../../components/charge-lines.tsx';
import { CreditBalances, useCreditBalances } from '../../../components/credit-balances.tsx';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { CancelDialog } from '../components/cancel-dialog.tsx';
import { CardOnFile } from '../components/card-on-file.tsx';
import { ReplicaLoading } from '../../../components/replica-loading.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { purchaseStatusLabels } from '../shop-texts.ts';
import { useCustomerApp } from '../use-customer-app.ts';

const placePaymentLabels: Record<BookingPaymentDoc['status'], string> = {
  paid: 'Paid — waiting for the booking',
  used: 'Paid — booked',
  'refund-due': 'Refund on its way to your card',
  refunded: 'Refunded',
  'refund-refused': 'The refund could not be made: ask the organization',
};
const placePaymentTone: Record<BookingPaymentDoc['status'], string> = {
  paid: 'pending',
  used: 'ok',
  'refund-due': 'pending',
  refunded: 'done',
  'refund-refused': 'refused',
};

/**
 * Purchase history (issue 15): the family's subscriptions and paid invoices from the device's
 * replica — shown offline too — the card on file with 'Replace card', and self-service cancel
 * at the end of the paid period (both need the network; what they change arrives by
 * replication).
 */
export function PurchaseHistoryPage() {
  const { orgId, orgName, home, user } = useCustomerApp();
  const scope = orgId ?? user.org?.id ?? '';
  const db = useAccountSync().sync?.db ?? null;
  const format = useOrgFormat();
  const purchases = useLiveQuery(db, 'purchases', { selector: { orgId: scope } });
  const invoices = useLiveQuery(db, 'invoices', { selector: { orgId: scope } });
  const roster = useLiveQuery(db, 'roster', { selector: { orgId: scope } });
  const placePayments = useLiveQuery(db, 'booking-payments', { selector: { orgId: scope } });
  const credits = useCreditBalances(db, scope);
  const [cancelling, setCancelling] = useState<PurchaseDoc | null>(null);

  const names = useMemo(() => {
    const byUser = new Map<string, string>();
    for (const doc of roster.documents) {
      const parsed = rosterItemDocSchema.safeParse(doc);
      if (parsed.success) byUser.set(parsed.data.athlete.id, parsed.data.athlete.fullName);
    }
    return byUser;
  }, [roster.documents]);
  const subscriptions = useMemo(
    () =>
      purchases.documents
        .flatMap((doc) => {
          const parsed = purchaseDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        .sort((a, b) => b.startedOn.localeCompare(a.startedOn)),
    [purchases.documents],
  );
  const receipts = useMemo(
    () =>
      invoices.documents
        .flatMap((doc) => {
          const parsed = invoiceDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        .sort((a, b) => (b.paidAt ?? '').localeCompare(a.paidAt ?? '')),
    [invoices.documents],
  );
  // Places paid by card when booking (decision 0070), newest first.
  const paidPlaces = useMemo(
    () =>
      placePayments.documents
        .flatMap((doc) => {
          const parsed = bookingPaymentDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        .sort((a, b) => (b.paidAt ?? '').localeCompare(a.paidAt ?? '')),
    [placePayments.documents],
  );
  const who = (userId: string) =>
    userId === user.id ? null : (names.get(userId) ?? 'A family member');
  const loading = db && (purchases.status === 'loading' || invoices.status === 'loading');

  return (
    <section className="page purchase-history">
      <h1>Purchase history</h1>
      {loading ? (
        <ReplicaLoading what="your purchase history" />
      ) : subscriptions.length === 0 &&
        receipts.length === 0 &&
        paidPlaces.length === 0 &&
        credits.balances.length === 0 ? (
        <EmptyState title="No purchases yet" action={{ label: 'Back to the dashboard', to: home }}>
          When you or your children buy something from {orgName ?? 'your organization'}, the receipt
          appears here — also without a connection.
        </EmptyState>
      ) : (
        <>
          <CardOnFile orgId={scope} userId={user.id} purchases={subscriptions} />
          <CreditBalances balances={credits.balances} who={who} />
          {subscriptions.length > 0 && (
            <section aria-labelledby="ph-subscriptions">
              <h2 id="ph-subscriptions">Subscriptions</h2>
              <ul className="purchases">
                {subscriptions.map((s) => (
                  <li key={s.id} className="shop-item">
                    <h3>{s.productName}</h3>
                    {who(s.customerUserId) && (
                      <p className="field-hint">For {who(s.customerUserId)}</p>
                    )}
                    <p>
                      {formatMoney(s.priceMinor)} · {purchaseStatusLabels[s.status]}
                    </p>
                    {s.externalPayments && (
                      <p className="field-hint">
                        Paid to {orgName ?? 'your organization'} outside the app: nothing is charged
                        here.
                      </p>
                    )}
                    {s.nextBillingDate && s.status !== 'cancelled' && (
                      <p>
                        {s.status === 'cancel-at-period-end'
                          ? 'Ends on'
                          : s.externalPayments
                            ? 'Next payment due on'
                            : 'Next charge on'}{' '}
                        {format.date(s.nextBillingDate)}
                      </p>
                    )}
                    {s.endsOn && s.status !== 'cancel-at-period-end' && (
                      <p>
                        {s.status === 'cancelled' ? 'Ended on' : 'Ends on'} {format.date(s.endsOn)}
                      </p>
                    )}
                    {s.card && isRenewing(s.status) && (
                      <p className="field-hint">Renews with {cardName(s.card)}</p>
                    )}
                    {isRenewing(s.status) &&
                      (s.customerUserId === user.id ? (
                        <button
                          type="button"
                          className="button button-secondary"
                          onClick={() => setCancelling(s)}
                        >
                          Cancel subscription
                        </button>
                      ) : (
                        <p className="field-hint">
                          To change it, switch to {who(s.customerUserId)}’s account.
                        </p>
                      ))}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {receipts.length > 0 && (
            <section aria-labelledby="ph-receipts">
              <h2 id="ph-receipts">Receipts</h2>
              <ul className="purchases">
                {receipts.map((invoice) => (
                  <li key={invoice.id} className="shop-item">
                    <h3>
                      {invoice.productName} — {formatMoney(invoice.totalMinor, invoice.currency)}
                    </h3>
                    <p className="field-hint">
                      {invoice.paidAt ? `Paid ${format.dateTime(invoice.paidAt)}` : 'Paid'}
                      {who(invoice.customerUserId) ? ` · for ${who(invoice.customerUserId)}` : ''}
                    </p>
                    <ChargeLines
                      caption={`${invoice.productName}, what was charged`}
                      captionHidden
                      lines={invoice.lineItems}
                      money={(minor) => formatMoney(minor, invoice.currency)}
                    />
                  </li>
                ))}
              </ul>
            </section>
          )}
          {paidPlaces.length > 0 && (
            <section aria-labelledby="ph-places">
              <h2 id="ph-places">Classes and appointments paid by card</h2>
              <ul className="purchases">
                {paidPlaces.map((payment) => (
                  <li key={payment.id} className="shop-item">
                    <h3>
                      {payment.description} — {formatMoney(payment.amountMinor, payment.currency)}
                    </h3>
                    <p className="field-hint">
                      {payment.paidAt ? `Paid ${format.dateTime(payment.paidAt)}` : 'Paid'}
                      {who(payment.customerUserId) ? ` · for ${who(payment.customerUserId)}` : ''}
                    </p>
                    <p
                      className={`booking-state booking-state-${placePaymentTone[payment.status]}`}
                    >
                      <strong>
                        {payment.status === 'refunded' && payment.refundedAt
                          ? `Refunded ${format.dateTime(payment.refundedAt)}`
                          : placePaymentLabels[payment.status]}
                      </strong>
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      {cancelling && (
        <CancelDialog
          orgId={scope}
          purchase={cancelling}
          endsOn={cancelling.nextBillingDate ? format.date(cancelling.nextBillingDate) : null}
          onClose={() => setCancelling(null)}
        />
      )}
    </section>
  );
}
