import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney } from '@platform/schema/payments/money';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { usePaymentProcessor } from '../../../lib/payment-processor.ts';
import { getTodaysSales } from '../api/charges.ts';
import { ChargeDialog } from '../components/charge-dialog.tsx';
import { RefundsToSettle } from '../components/refunds-to-settle.tsx';
import '../products.css';

export type TillCustomer = { rosterId: string; name: string };

const salesKey = (orgId: string) => ['todays-sales', orgId] as const;

/**
 * /dashboard/pos (claim manage-point-of-sale; hidden on Jobber; issue 15): the front desk's
 * till. Pick a customer (or add one), charge a product or start a subscription through the
 * charge flow, see today's sales with their total, and settle refunds the processor refused.
 * Charging needs the network, and says so.
 */
export function PosPage({
  chooseCustomer,
}: {
  /** The customer picker and 'Add customer', composed in app/ (features/crm). */
  chooseCustomer: (
    current: TillCustomer | null,
    onChosen: (customer: TillCustomer) => void,
  ) => ReactNode;
}) {
  const user = useSignedInUser();
  const orgId = user.org?.id ?? '';
  const online = useOnlineStatus();
  const noProcessor = usePaymentProcessor() === 'none';
  const queryClient = useQueryClient();
  const format = orgFormat(user.org?.timezone);
  const [customer, setCustomer] = useState<TillCustomer | null>(null);
  const [charging, setCharging] = useState(false);
  const sales = useQuery({
    queryKey: salesKey(orgId),
    queryFn: ({ signal }) => getTodaysSales(signal),
  });
  const money = (minor: number) => formatMoney(minor, sales.data?.currency ?? 'USD');

  const chosen = (next: TillCustomer) => {
    setCustomer(next);
    setCharging(!noProcessor);
  };

  return (
    <section className="page packages pos">
      <div className="packages-heading">
        <h1>Point of Sale</h1>
      </div>
      <section className="packages-section" aria-labelledby="pos-charge-heading">
        <h2 id="pos-charge-heading">Charge a customer</h2>
        {!online && (
          <p className="crm-offline" role="status">
            You are offline. Charging needs a connection.
          </p>
        )}
        {noProcessor && <NoProcessorNotice />}
        {chooseCustomer(customer, chosen)}
        {customer && (
          <div className="button-row">
            <button
              type="button"
              className="button"
              disabled={!online || noProcessor}
              onClick={() => setCharging(true)}
            >
              Charge {customer.name}
            </button>
          </div>
        )}
      </section>
      <section className="packages-section" aria-labelledby="pos-sales-heading">
        <h2 id="pos-sales-heading">Today’s sales</h2>
        {sales.isPending ? (
          <p role="status" className="packages-muted">
            Loading today’s sales…
          </p>
        ) : sales.isError ? (
          <LoadFailure
            error={sales.error}
            what={'Loading today’s sales'}
            onRetry={() => void sales.refetch()}
          />
        ) : sales.data.sales.length === 0 ? (
          <p className="packages-muted">No sales yet today.</p>
        ) : (
          <div>
            <table className="charge-lines pos-sales">
              <caption className="visually-hidden">Today’s sales</caption>
              <thead>
                <tr>
                  <th scope="col">Sale</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {sales.data.sales.map((sale) => (
                  <tr key={sale.invoiceId}>
                    <th scope="row">
                      {sale.customerName}
                      <span className="packages-muted charge-note">
                        {sale.productName}
                        {sale.subscription ? ' (subscription)' : ''} · {format.time(sale.paidAt)}
                      </span>
                    </th>
                    <td>{money(sale.totalMinor)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total today</th>
                  <td>{money(sales.data.totalMinor)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
      <RefundsToSettle />
      {customer && charging && (
        <ChargeDialog
          rosterId={customer.rosterId}
          open
          onOpenChange={(open) => {
            setCharging(open);
            if (!open) void queryClient.invalidateQueries({ queryKey: salesKey(orgId) });
          }}
        />
      )}
    </section>
  );
}
