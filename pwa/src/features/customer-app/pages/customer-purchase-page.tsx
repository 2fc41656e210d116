import { AccessDenied } from '../../../components/access-denied.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { ShopPage } from './shop-page.tsx';

/**
 * spec §2 /dashboard/customer-purchase: buying outside a branded app — the Shop of the
 * customer's current organisation (the same page, its organisation from the session). Staff in
 * their organisation's view sell instead; they buy from a customer view.
 */
export function CustomerPurchasePage() {
  const user = useSignedInUser();
  if (user.view !== 'customer') {
    return (
      <AccessDenied
        title="Shop"
        reason="Buying is for customers: switch to your customer account (Switch accounts) to buy."
      />
    );
  }
  return <ShopPage />;
}
