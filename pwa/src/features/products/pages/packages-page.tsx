import { useState } from 'react';
import type { CatalogueCoupon, CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import { formatMoney } from '@platform/schema/payments/money';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { NetworkError } from '../../../lib/api.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import {
  catalogueTexts,
  couponTypeLabels,
  durationLabels,
  scheduleLabels,
  stateLabels,
} from '../catalogue-texts.ts';
import { CouponDialog } from '../components/coupon-dialog.tsx';
import { ProductDialog } from '../components/product-dialog.tsx';
import { useCatalogue, useCatalogueChanges } from '../hooks/use-catalogue.ts';
import '../products.css';

type Open = { kind: 'product'; product: CatalogueProduct | null } | { kind: 'coupon' } | null;

/**
 * /dashboard/packages (claim manage-products; spec §3 Product, Coupon; issue 15): what the
 * organisation sells and the discounts it gives. Server state through TanStack Query; every
 * product also exists at the payment processor.
 */
export function PackagesPage() {
  const user = useSignedInUser();
  const orgId = user.org?.id ?? '';
  const catalogue = useCatalogue(orgId);
  const changes = useCatalogueChanges(orgId);
  const toast = useToast();
  const [open, setOpen] = useState<Open>(null);
  const currency = catalogue.data?.currency ?? 'USD';
  const price = (minor: number) => formatMoney(minor, currency);

  const archive = async (product: CatalogueProduct) => {
    try {
      await changes.archiveProduct.mutateAsync(product.id);
      toast.success(catalogueTexts.productArchived(product.name));
    } catch (error) {
      toast.error(failureText(error, 'Archiving the product'));
    }
  };
  const removeCoupon = async (coupon: CatalogueCoupon) => {
    try {
      await changes.archiveCoupon.mutateAsync(coupon.id);
      toast.success(catalogueTexts.couponArchived(coupon.name));
    } catch (error) {
      toast.error(failureText(error, 'Removing the coupon'));
    }
  };
  const couponAmount = (coupon: CatalogueCoupon) =>
    coupon.type === 'percentage'
      ? `${coupon.amount}% off`
      : coupon.type === 'fixed'
        ? `${price(coupon.amount)} off`
        : couponTypeLabels.none;
  const couponDuration = (coupon: CatalogueCoupon) =>
    coupon.duration.durationType === 'repeating'
      ? `For ${coupon.duration.durationInMonths} months`
      : durationLabels[coupon.duration.durationType];

  return (
    <section className="page packages">
      <div className="packages-heading">
        <h1>Products</h1>
        <button
          type="button"
          className="button"
          onClick={() => setOpen({ kind: 'product', product: null })}
          disabled={!catalogue.data || catalogue.data.processor === 'none'}
        >
          New product
        </button>
      </div>
      {catalogue.data?.processor === 'sandbox' && (
        <p className="sandbox-note" role="note">
          {catalogueTexts.sandbox}
        </p>
      )}
      {catalogue.data?.processor === 'none' && (
        <NoProcessorNotice detail={catalogueTexts.noProcessor} />
      )}
      {catalogue.isPending ? (
        <p className="packages-muted" role="status">
          Loading the products…
        </p>
      ) : catalogue.isError ? (
        <div role="alert" className="form-error">
          <p>
            {catalogue.error instanceof NetworkError
              ? 'You are offline. The products need a connection.'
              : 'The products could not be loaded.'}
          </p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void catalogue.refetch()}
          >
            Try again
          </button>
        </div>
      ) : (
        <>
          <section className="card" aria-labelledby="products-heading">
            <h2 id="products-heading">On offer</h2>
            {catalogue.data.products.length === 0 ? (
              <p className="packages-muted">{catalogueTexts.emptyProducts}</p>
            ) : (
              <div
                className="packages-scroll"
                role="region"
                // Its own name: two landmarks named 'On offer' would be one too many (axe).
                aria-label="Products, scrolls sideways on a narrow screen"
                tabIndex={0}
              >
                <table className="entries-table packages-table">
                  <thead>
                    <tr>
                      <th scope="col">Product</th>
                      <th scope="col">Charged</th>
                      <th scope="col">Price</th>
                      <th scope="col">Start-up fee</th>
                      <th scope="col">State</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {catalogue.data.products.map((product) => (
                      <tr key={product.id}>
                        <th scope="row">{product.name}</th>
                        <td>
                          {scheduleLabels[product.schedule]}
                          {product.unifiedBillingConfig.enabled &&
                            `, on day ${product.unifiedBillingConfig.billingDayOfMonth}`}
                        </td>
                        <td>
                          {product.variablePricing.enabled
                            ? product.variablePricing.prices.map((p) => price(p.price)).join(' / ')
                            : price(product.priceMinor)}
                        </td>
                        <td>{product.startupFeeMinor ? price(product.startupFeeMinor) : '—'}</td>
                        <td>{stateLabels[product.state]}</td>
                        <td className="entry-actions">
                          <button
                            type="button"
                            className="button button-secondary"
                            aria-label={`Edit ${product.name}`}
                            onClick={() => setOpen({ kind: 'product', product })}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="button button-secondary"
                            aria-label={`Archive ${product.name}`}
                            disabled={changes.archiveProduct.isPending}
                            onClick={() => void archive(product)}
                          >
                            Archive
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section className="card" aria-labelledby="coupons-heading">
            <div className="packages-heading">
              <h2 id="coupons-heading">Coupons</h2>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setOpen({ kind: 'coupon' })}
              >
                New coupon
              </button>
            </div>
            {catalogue.data.coupons.length === 0 ? (
              <p className="packages-muted">{catalogueTexts.emptyCoupons}</p>
            ) : (
              <ul className="coupon-list">
                {catalogue.data.coupons.map((coupon) => (
                  <li key={coupon.id}>
                    <strong>{coupon.name}</strong> · {couponAmount(coupon)} ·{' '}
                    {couponDuration(coupon)} ·{' '}
                    {coupon.numberOfRedemptions === null
                      ? `${coupon.timesRedeemed} used`
                      : `${coupon.timesRedeemed} of ${coupon.numberOfRedemptions} used`}
                    <button
                      type="button"
                      className="button-link"
                      aria-label={`Remove coupon ${coupon.name}`}
                      onClick={() => void removeCoupon(coupon)}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      {open?.kind === 'product' && (
        <ProductDialog
          product={open.product}
          currency={currency}
          save={changes.saveProduct}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'coupon' && (
        <CouponDialog
          products={catalogue.data?.products ?? []}
          currency={currency}
          create={changes.createCoupon}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}
