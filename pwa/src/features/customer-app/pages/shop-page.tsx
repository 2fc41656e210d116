import { useMemo, useState } from 'react';
import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { formatMoney } from '@platform/schema/payments/money';
import { productDocSchema, type ProductDoc } from '@platform/schema/payments/product-doc.zod';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { CheckoutDialog } from '../components/checkout-dialog.tsx';
import { ReplicaLoading } from '../../../components/replica-loading.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { everyLabels, shopTexts } from '../shop-texts.ts';
import { useCustomerApp } from '../use-customer-app.ts';

/**
 * Shop (issue 15): the organisation's products from the device's replica of its catalogue —
 * readable on a train — and Buy, which needs the network and says so.
 */
export function ShopPage() {
  const { orgId, orgName, home, user } = useCustomerApp();
  const scope = orgId ?? user.org?.id ?? '';
  const db = useAccountSync().sync?.db ?? null;
  const online = useOnlineStatus();
  const catalogue = useLiveQuery(db, 'products', { selector: { orgId: scope } });
  const [buying, setBuying] = useState<ProductDoc | null>(null);
  const products = useMemo(
    () =>
      catalogue.documents
        .flatMap((doc) => {
          const parsed = productDocSchema.safeParse(doc);
          return parsed.success && parsed.data.state !== 'archived' ? [parsed.data] : [];
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    [catalogue.documents],
  );
  const purchaseHistory = orgId
    ? `${brandingPaths.customerApp(orgId)}/purchase-history`
    : '/dashboard-customer/purchase-history';
  const price = (product: ProductDoc) => {
    if (product.variablePricing.enabled && product.variablePricing.prices.length > 0) {
      const low = Math.min(...product.variablePricing.prices.map((p) => p.price));
      return `from ${formatMoney(low)}`;
    }
    return formatMoney(product.priceMinor);
  };

  return (
    <section className="page shop">
      <h1>Shop</h1>
      {!online && products.length > 0 && (
        <p className="crm-offline" role="status">
          {shopTexts.offlineBuy}
        </p>
      )}
      {db && catalogue.status === 'loading' ? (
        <ReplicaLoading what="the shop" />
      ) : products.length === 0 ? (
        <EmptyState
          title="Nothing for sale yet"
          action={{ label: 'Back to the dashboard', to: home }}
        >
          {orgName ?? 'Your organization'} has not put any memberships, class packs or products in
          the app yet. When they do, you can buy them here.
        </EmptyState>
      ) : (
        <>
          <p className="field-hint">{shopTexts.forChild}</p>
          <ul className="shop-list" aria-label="Products">
            {products.map((product) => (
              <li key={product.id} className="shop-item">
                <h2>{product.name}</h2>
                {product.description && <p>{product.description}</p>}
                <p className="shop-price">
                  {product.state === 'requires-consultation'
                    ? 'Price agreed with you'
                    : `${price(product)} ${everyLabels[product.schedule]}`}
                  {product.startupFeeMinor > 0 &&
                    ` + ${formatMoney(product.startupFeeMinor)} start-up fee`}
                </p>
                {product.state === 'requires-consultation' ? (
                  <p className="field-hint">
                    Ask {orgName ?? 'us'} about it: the price is agreed with you.
                  </p>
                ) : (
                  <button
                    type="button"
                    className="button"
                    disabled={!online}
                    aria-label={`Buy ${product.name}`}
                    onClick={() => setBuying(product)}
                  >
                    Buy
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {buying && (
        <CheckoutDialog
          orgId={scope}
          product={buying}
          purchaseHistoryPath={purchaseHistory}
          onClose={() => setBuying(null)}
        />
      )}
    </section>
  );
}
