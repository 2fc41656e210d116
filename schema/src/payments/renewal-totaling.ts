import { billingDateAfter, type RecurringSchedule } from './billing-calendar.ts';
import type { Minor } from './money.ts';
import type { CouponTerms } from './products.zod.ts';
import {
  couponApplies,
  couponDiscountOf,
  discountsChargeOn,
  TotalingError,
  type LineItem,
  type TotaledInvoice,
} from './totaling.ts';
import type { DayKey } from '../time-tracking/org-calendar.ts';

/**
 * What each renewal of a subscription costs (decision 0060), by the rules the purchase was
 * totaled by (decision 0054): integer minor units, the agreed price, and the coupon kept on the
 * subscription — its duration decides each renewal on its own, counted from the first charge
 * that was not zero: `forever` every renewal, `once` none after that first charge, `repeating`
 * N months those whose period starts before the first charge + N months. Pure, like totaling.
 */

/**
 * A subscription's billing cycle, read from the invoice that started it:
 * - `anchor`: every billing date is `anchor` + k periods. The purchase day when that first
 *   charge paid a whole period; else its next billing date (a delayed start, or the billing day
 *   of unified billing, where the first period was prorated or not charged).
 * - `couponFrom`: the day of the first charge that was not zero, from which a coupon's duration
 *   counts — the purchase day, or the first billing date when nothing was charged then.
 */
export type BillingCycle = { anchor: DayKey; couponFrom: DayKey };

export function billingCycleOf(
  startedOn: DayKey,
  first: Pick<TotaledInvoice, 'nextBillingDate' | 'isProrated' | 'lineItems'>,
): BillingCycle {
  const line = first.lineItems.find((item) => item.type === 'subscription');
  const chargedNow = (line?.originalAmount ?? 0) > 0;
  const firstBilling = first.nextBillingDate ?? startedOn;
  return {
    anchor: chargedNow && !first.isProrated ? startedOn : firstBilling,
    couponFrom: chargedNow ? startedOn : firstBilling,
  };
}

/** What the coupon takes off the renewal whose period starts on `periodStart`. */
export function renewalDiscount(
  coupon: CouponTerms | null,
  productId: string,
  priceMinor: Minor,
  periodStart: DayKey,
  cycle: BillingCycle,
): Minor {
  if (!couponApplies(coupon, productId)) return 0;
  if (!discountsChargeOn(coupon, periodStart, cycle.couponFrom)) return 0;
  return couponDiscountOf(coupon, priceMinor);
}

export type RenewalInput = {
  product: {
    id: string;
    name: string;
    schedule: RecurringSchedule;
    stripeProductId: string | null;
  };
  /** The price agreed for this subscription (variable pricing), before any coupon. */
  priceMinor: Minor;
  coupon: CouponTerms | null;
  cycle: BillingCycle;
  /** The billing date this renewal is for: the subscription's next billing date. */
  periodStart: DayKey;
  formatDay?: (day: DayKey) => string;
};

/** The invoice of one renewal: one line, the period it pays for, and what the next costs. */
export function totalRenewal(input: RenewalInput): TotaledInvoice {
  const { product, priceMinor, coupon, cycle, periodStart } = input;
  if (!Number.isSafeInteger(priceMinor) || priceMinor < 0) {
    throw new TotalingError(`price ${priceMinor} is not minor units`);
  }
  const day = input.formatDay ?? ((d: DayKey) => d);
  const periodEnd = billingDateAfter(cycle.anchor, product.schedule, periodStart);
  const discount = renewalDiscount(coupon, product.id, priceMinor, periodStart, cycle);
  const line: LineItem = {
    type: 'subscription',
    description: `${product.name} — ${day(periodStart)} to ${day(periodEnd)}`,
    stripeProductId: product.stripeProductId,
    originalAmount: priceMinor,
    finalAmount: priceMinor - discount,
    discountAmount: discount,
    discountPercent: discount > 0 && coupon?.type === 'percentage' ? coupon.amount : null,
    isProrated: false,
    prorationDescription: null,
  };
  return {
    total: line.finalAmount,
    subtotal: priceMinor,
    couponDiscount: discount,
    recurringFinalAmount:
      priceMinor - renewalDiscount(coupon, product.id, priceMinor, periodEnd, cycle),
    nextBillingDate: periodEnd,
    isProrated: false,
    prorationDescription: null,
    lineItems: [line],
  };
}

/**
 * Which renewals a coupon discounts, for a processor that bills them itself (Stripe, decision
 * 0060): every one, or the first `count` — the last of them on `lastDiscounted`, the first at
 * the full price on `firstFullPrice`. Null when it discounts none.
 */
export type RenewalDiscountPlan =
  | { forever: true }
  | { forever: false; count: number; lastDiscounted: DayKey; firstFullPrice: DayKey };

/** The longest a plan is followed: a 36-month coupon on weekly renewals is 157 of them. */
const MAX_PLANNED_RENEWALS = 400;

export function renewalDiscountPlan(input: {
  coupon: CouponTerms | null;
  productId: string;
  priceMinor: Minor;
  schedule: RecurringSchedule;
  cycle: BillingCycle;
  firstRenewal: DayKey;
}): RenewalDiscountPlan | null {
  const { coupon, productId, priceMinor, schedule, cycle } = input;
  if (!couponApplies(coupon, productId) || couponDiscountOf(coupon, priceMinor) === 0) return null;
  if (coupon.duration.durationType === 'forever') return { forever: true };
  let count = 0;
  let lastDiscounted: DayKey | null = null;
  let renewal = input.firstRenewal;
  while (discountsChargeOn(coupon, renewal, cycle.couponFrom)) {
    if (++count > MAX_PLANNED_RENEWALS) throw new TotalingError('a coupon without an end');
    lastDiscounted = renewal;
    renewal = billingDateAfter(cycle.anchor, schedule, renewal);
  }
  return lastDiscounted === null
    ? null
    : { forever: false, count, lastDiscounted, firstFullPrice: renewal };
}
