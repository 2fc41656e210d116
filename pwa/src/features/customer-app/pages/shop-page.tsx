import { EmptyState } from '../components/empty-state.tsx';
import { useCustomerApp } from '../use-customer-app.ts';

/** Shop: the organisation's products for sale (filled by the products-and-payments work). */
export function ShopPage() {
  const { orgName, home } = useCustomerApp();
  return (
    <section className="page">
      <h1>Shop</h1>
      <EmptyState
        title="Nothing for sale yet"
        action={{ label: 'Back to the dashboard', to: home }}
      >
        {orgName ?? 'Your organization'} has not put any memberships, class packs or products in the
        app yet. When they do, you can buy them here.
      </EmptyState>
    </section>
  );
}
