import type { ReactNode } from 'react';
import type { CatalogueCoupon, CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import type { PaymentMethodView } from '@platform/schema/payments/charge.zod';
import { addDays } from '@platform/schema/payments/billing-calendar';
import { scheduleLabels } from '../catalogue-texts.ts';
import { takesPrice } from '../charge-flow.ts';

/*
 * The fields a sale and an invitation to a product share (spec §2 charge modal and
 * Invite-to-product, §4 Subscription start): the product, the coupon, the start, and the
 * lines of a totaled invoice.
 */

export function ProductSelect(props: {
  id: string;
  products: CatalogueProduct[];
  value: string | null;
  emptyLabel: string;
  money: (minor: number) => string;
  onChange: (productId: string | null) => void;
  describedBy?: string | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Product</label>
      <select
        id={props.id}
        value={props.value ?? ''}
        aria-describedby={props.describedBy}
        onChange={(event) => props.onChange(event.target.value || null)}
      >
        <option value="">{props.emptyLabel}</option>
        {props.products.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} —{' '}
            {takesPrice(p) ? 'price agreed with the customer' : props.money(p.priceMinor)}
            {p.type === 'recurring' ? `, ${scheduleLabels[p.schedule].toLowerCase()}` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CouponSelect(props: {
  id: string;
  coupons: CatalogueCoupon[];
  value: string | null;
  onChange: (couponId: string | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Coupon (optional)</label>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.target.value || null)}
      >
        <option value="">No coupon</option>
        {props.coupons.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Immediately on purchase" or "On a specific date", the date between tomorrow and `latest`. */
export function StartChoice(props: {
  id: string;
  today: string;
  latest: string;
  delayed: boolean;
  startDate: string;
  onNow: () => void;
  onDate: (day: string) => void;
  describedBy?: string | undefined;
  children?: ReactNode;
}) {
  const tomorrow = addDays(props.today, 1);
  return (
    <fieldset className="product-choice">
      <legend>Subscription start</legend>
      <label>
        <input type="radio" name={props.id} checked={!props.delayed} onChange={props.onNow} />{' '}
        Immediately on purchase
      </label>
      <label>
        <input
          type="radio"
          name={props.id}
          checked={props.delayed}
          onChange={() => props.onDate(tomorrow)}
        />{' '}
        On a specific date
      </label>
      {props.delayed && (
        <div className="field">
          <label htmlFor={`${props.id}-date`}>Start date</label>
          <input
            id={`${props.id}-date`}
            type="date"
            min={tomorrow}
            max={props.latest}
            value={props.startDate}
            aria-describedby={props.describedBy}
            onChange={(event) => props.onDate(event.target.value)}
          />
        </div>
      )}
      {props.children}
    </fieldset>
  );
}

/** A saved card as a person recognises it: 'Visa •••• 4242 (expires 12/34)'. */
export const cardLabel = (card: PaymentMethodView) =>
  `${card.brand} •••• ${card.last4} (expires ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)})`;
