import { EmptyState } from '../components/empty-state.tsx';
import { useCustomerApp } from '../use-customer-app.ts';

/** Purchase history: receipts of what the family bought (filled by products and payments). */
export function PurchaseHistoryPage() {
  const { orgName, home } = useCustomerApp();
  return (
    <section className="page">
      <h1>Purchase history</h1>
      <EmptyState title="No purchases yet" action={{ label: 'Back to the dashboard', to: home }}>
        When you or your children buy something from {orgName ?? 'your organization'}, the receipt
        appears here — also without a connection.
      </EmptyState>
    </section>
  );
}
