import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { hasAnyClaim } from '@platform/schema/organizations/claims';
import { formatMoney } from '@platform/schema/payments/money';
import {
  OVERVIEW_LIMIT,
  subscriptionsOverviewClaims,
  type SubscriptionOverviewRow,
  type SubscriptionsOverview,
} from '@platform/schema/payments/subscriptions-overview.zod';
import { AccessDenied } from '../../../components/access-denied.tsx';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { getSubscriptions } from '../api/subscriptions.ts';
import { processorTexts, subscriptionStatusLabels } from '../catalogue-texts.ts';
import '../products.css';

const TITLE = 'Subscriptions';

/**
 * /dashboard/org-subscription, "Subscription & Billing" in the user menu (issue 15): the owner's
 * overview of every subscription the organisation's customers hold — past due first — and which
 * processor takes its cards. Staff with manage-products or manage-point-of-sale; server state
 * (TanStack Query), as the server says why (subscriptions-overview.service.ts).
 */
export function SubscriptionsPage() {
  const user = useSignedInUser();
  const allowed = user.view === 'org' && hasAnyClaim(user.claims, subscriptionsOverviewClaims);
  if (!allowed) {
    return (
      <AccessDenied
        title={TITLE}
        reason="The subscriptions are for staff who sell or keep the products."
      />
    );
  }
  return <SubscriptionsOverviewView orgId={user.org?.id ?? ''} />;
}

function SubscriptionsOverviewView({ orgId }: { orgId: string }) {
  const overview = useQuery({
    queryKey: ['subscriptions-overview', orgId],
    queryFn: ({ signal }) => getSubscriptions(signal),
  });
  return (
    <section className="page packages subscriptions">
      <div className="packages-heading">
        <h1>{TITLE}</h1>
      </div>
      {overview.isPending ? (
        <p className="packages-muted" role="status">
          Loading the subscriptions…
        </p>
      ) : overview.isError ? (
        <LoadFailure
          error={overview.error}
          what="Loading the subscriptions"
          onRetry={() => void overview.refetch()}
        />
      ) : (
        <>
          <ProcessorPanel processor={overview.data.processor} />
          <SubscriptionList overview={overview.data} />
        </>
      )}
    </section>
  );
}

function ProcessorPanel({ processor }: { processor: SubscriptionsOverview['processor'] }) {
  return (
    <section className="card" aria-labelledby="subscriptions-processor">
      <h2 id="subscriptions-processor">Card payments</h2>
      {processor === 'none' ? (
        <NoProcessorNotice detail="Subscriptions paid outside the platform can still be recorded." />
      ) : (
        <p className={processor === 'sandbox' ? 'sandbox-note' : undefined}>
          <strong>{processor === 'sandbox' ? 'Sandbox' : 'Stripe'}</strong>
          {' takes this organisation’s cards. '}
          {processorTexts[processor]}
        </p>
      )}
    </section>
  );
}

function SubscriptionList({ overview }: { overview: SubscriptionsOverview }) {
  const user = useSignedInUser();
  const format = useOrgFormat();
  const { subscriptions } = overview;
  const pastDue = subscriptions.filter((s) => s.status === 'past-due').length;
  const canOpenCustomers = user.claims.includes('view-customers');
  const money = (minor: number) => formatMoney(minor, overview.currency);
  const nextCharge = (row: SubscriptionOverviewRow) =>
    !row.nextBillingDate || row.status === 'cancelled'
      ? '—'
      : row.status === 'cancel-at-period-end'
        ? `Ends ${format.date(row.nextBillingDate)}`
        : format.date(row.nextBillingDate);

  return (
    <section className="card" aria-labelledby="subscriptions-list">
      <h2 id="subscriptions-list">Customers’ subscriptions</h2>
      {subscriptions.length === 0 ? (
        <p className="packages-muted">
          No customer holds a subscription yet. Sell one at the{' '}
          <Link to="/dashboard/pos">Point of Sale</Link> or from a customer’s profile; customers buy
          them in the Shop of your app.
        </p>
      ) : (
        <>
          <p className="packages-muted">
            {subscriptions.length} {subscriptions.length === 1 ? 'subscription' : 'subscriptions'}
            {pastDue > 0 && `, ${pastDue} past due`}.
            {overview.truncated && ` Only the first ${OVERVIEW_LIMIT} are listed.`}
          </p>
          <div
            className="packages-scroll"
            role="region"
            aria-label="Subscriptions, scrolls sideways on a narrow screen"
            tabIndex={0}
          >
            <table className="entries-table packages-table">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Product</th>
                  <th scope="col">Status</th>
                  <th scope="col">Next charge</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {subscriptions.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      {canOpenCustomers && row.rosterId ? (
                        <Link to={`/dashboard/crm/customers/${row.rosterId}`}>
                          {row.customerName}
                        </Link>
                      ) : (
                        row.customerName
                      )}
                    </th>
                    <td>{row.productName}</td>
                    <td>
                      {row.status === 'past-due' ? (
                        <strong>{subscriptionStatusLabels[row.status]}</strong>
                      ) : (
                        subscriptionStatusLabels[row.status]
                      )}
                    </td>
                    <td>{nextCharge(row)}</td>
                    <td>
                      {money(row.amountMinor)}
                      {row.externalPayments && ' (paid outside the platform)'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
