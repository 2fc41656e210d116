import { useEffect, useEffectEvent, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CatalogueCoupon, CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import { latestStartDate } from '@platform/schema/payments/charge-flow.rules';
import { formatMoney } from '@platform/schema/payments/money';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { localToday } from '../../../lib/local-today.ts';
import { getCatalogue } from '../api/catalogue.ts';
import { getChargeContext } from '../api/charges.ts';
import { sendPackageInvite } from '../api/package-invites.ts';
import { takesPrice } from '../charge-flow.ts';
import { useInvitesChanged } from '../hooks/use-package-invites.ts';
import {
  canDelayStart,
  chooseOfferProduct,
  couponsFor,
  emptyOffer,
  offerBlocker,
  offerRequest,
  type InviteOffer,
} from '../invite-offer.ts';
import { chargeContextKey } from './charge-dialog.tsx';
import { CouponSelect, ProductSelect, StartChoice } from './offer-fields.tsx';
import '../products.css';

type OfferContext = {
  products: CatalogueProduct[];
  coupons: CatalogueCoupon[];
  currency: string;
  today: string;
};

/**
 * What may be offered: for a known customer, the charge modal's context (the organisation's
 * today, claim manage-point-of-sale); before the customer exists, the catalogue (claim
 * manage-products), counted from this device's today — the server checks the window again.
 */
function useOfferContext(rosterId: string | null) {
  return useQuery({
    queryKey: rosterId ? chargeContextKey(rosterId) : ['catalogue', 'invite-offer'],
    queryFn: async ({ signal }): Promise<OfferContext> => {
      if (rosterId) return getChargeContext(rosterId, signal);
      return { ...(await getCatalogue(signal)), today: localToday() };
    },
  });
}

export type ProductPartReport = (state: {
  ready: boolean;
  send: ((rosterId: string) => Promise<string>) | null;
}) => void;

/**
 * The product part of the Add customer dialog (spec §2 Invite-to-product, §4 Subscription
 * start, §5): product (optional), price where the product asks for one, start now or on a
 * date inside the schedule's window, coupon. It reports to the dialog whether its answers are
 * ready and how to send them; the sent invitation refreshes every pending-invitations list.
 */
export function InviteProductPart({
  rosterId,
  report,
}: {
  rosterId: string | null;
  report: ProductPartReport;
}) {
  const context = useOfferContext(rosterId);
  const [offer, setOffer] = useState<InviteOffer>(emptyOffer);
  const invitesChanged = useInvitesChanged();
  const data = context.data;
  const product = data?.products.find((p) => p.id === offer.productId) ?? null;
  const blocker = data ? offerBlocker(offer, product, data.today) : null;
  const ready = data !== undefined && blocker === null;

  // The dialog hears of a change of answers only, not of every render or refetch; the send
  // made then carries the answers of that moment.
  const announce = useEffectEvent(() =>
    report({
      ready: ready || offer.productId === null,
      send: product
        ? async (customerRosterId) => {
            try {
              const sent = await sendPackageInvite(offerRequest(offer, product, customerRosterId));
              return sent.message;
            } finally {
              void invitesChanged();
            }
          }
        : null,
    }),
  );
  const answers = `${String(ready)}|${product?.id ?? ''}|${JSON.stringify(offer)}`;
  useEffect(() => announce(), [answers]);

  if (context.isPending) {
    return (
      <p role="status" className="packages-muted">
        Loading products…
      </p>
    );
  }
  if (context.isError) {
    return (
      <LoadFailure
        error={context.error}
        what={'Loading the products'}
        onRetry={() => void context.refetch()}
      />
    );
  }
  const { products, currency, today } = context.data;
  const money = (minor: number) => formatMoney(minor, currency);
  const coupons = couponsFor(context.data.coupons, product);
  const latestDay = product ? latestStartDate(product.schedule, today) : null;
  const update = (next: Partial<InviteOffer>) => setOffer((old) => ({ ...old, ...next }));
  // One reason at a time, under the part; a price not yet typed is not yet an error.
  const shownBlocker = blocker && !(takesPriceOf(product) && offer.price === '') ? blocker : null;
  const describedBy = shownBlocker ? 'invite-offer-error' : undefined;

  return (
    <fieldset className="invite-product-part">
      <legend>Product (optional)</legend>
      <ProductSelect
        id="invite-product"
        products={products}
        value={offer.productId}
        emptyLabel="No product"
        money={money}
        describedBy={describedBy}
        onChange={(productId) => setOffer(chooseOfferProduct(productId))}
      />
      {product && takesPrice(product) && (
        <div className="field">
          <label htmlFor="invite-price">Price ({currency})</label>
          <input
            id="invite-price"
            inputMode="decimal"
            required
            value={offer.price}
            aria-describedby={describedBy}
            onChange={(event) => update({ price: event.target.value })}
          />
        </div>
      )}
      {product && canDelayStart(product, today) && latestDay && (
        <StartChoice
          id="invite-start"
          today={today}
          latest={latestDay}
          delayed={offer.start === 'date'}
          startDate={offer.startDate}
          describedBy={describedBy}
          onNow={() => update({ start: 'now', startDate: '' })}
          onDate={(startDate) => update({ start: 'date', startDate })}
        >
          {product.startupFeeMinor > 0 && (
            <p className="packages-muted">
              {offer.start === 'date'
                ? 'No start-up fee with a delayed start.'
                : `Includes the start-up fee of ${money(product.startupFeeMinor)}.`}
            </p>
          )}
        </StartChoice>
      )}
      {product && coupons.length > 0 && (
        <CouponSelect
          id="invite-coupon"
          coupons={coupons}
          value={offer.couponId}
          onChange={(couponId) => update({ couponId })}
        />
      )}
      {shownBlocker && (
        <p className="field-error" id="invite-offer-error">
          {shownBlocker}
        </p>
      )}
    </fieldset>
  );
}

const takesPriceOf = (product: CatalogueProduct | null) => product !== null && takesPrice(product);
