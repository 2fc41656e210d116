import {
  addMonths,
  addPeriods,
  clampBillingDay,
  daysBetween,
  isMonthlyCycle,
  nextBillingDay,
  subtractPeriod,
  type Schedule,
} from './billing-calendar.ts';
import { chargesStartupFee, startDateRefusal, type ProrationMode } from './charge-flow.rules.ts';
import { divideRounded, isMinor, type Minor } from './money.ts';
import type { CouponTerms, ProductType } from './products.zod.ts';
import type { DayKey } from '../time-tracking/org-calendar.ts';

/**
 * Totaling (spec §3 Totaled invoice, §4 Charge flow, §5, §9): what a customer is charged now
 * for a product, line by line, and what follows. Pure and synchronous — no clock, no I/O: the
 * organisation's `today` comes in — so the browser shows exactly the figures the server then
 * charges (the server totals again; it never takes the browser's numbers).
 *
 * Rules (decision 0054):
 * - every amount is integer minor units; every division rounds half up on integers;
 * - the start-up fee is charged with the first charge made now, never with a delayed start;
 *   coupons discount the product, never the start-up fee;
 * - a delayed start charges nothing now: the first charge is on the start date;
 * - unified billing (monthly-cycle schedules) anchors renewals to the billing day of the month.
 *   Starting between two billing days, `charge-prorated` charges the share of the period up to
 *   the billing day now; `delayed-billing` charges nothing until the billing day;
 * - a coupon's duration counts charges that are not zero: `once` discounts the first real
 *   charge (now, or the next billing date when nothing is charged now), `repeating` every charge
 *   dated before the first real charge + durationInMonths months, `forever` every charge.
 */

export type TotalingProduct = {
  id: string;
  name: string;
  type: ProductType;
  schedule: Schedule;
  priceMinor: Minor;
  startupFeeMinor: Minor;
  stripeProductId: string | null;
  unifiedBillingConfig: { enabled: boolean; billingDayOfMonth: number };
};

export type TotalingInput = {
  product: TotalingProduct;
  /** The price agreed for this customer (variable pricing, requires-consultation); else the product's. */
  priceMinor?: Minor | null;
  coupon: CouponTerms | null;
  /** The organisation's today. */
  today: DayKey;
  /** A delayed start (spec §4 "On a specific date"), or null for "Immediately on purchase". */
  startDate: DayKey | null;
  prorationMode: ProrationMode;
  /** Writes a day in descriptions ('Dec 1, 2026'); ISO by default. */
  formatDay?: (day: DayKey) => string;
};

export type LineItem = {
  type: 'startup_fee' | 'subscription';
  description: string;
  stripeProductId: string | null;
  originalAmount: Minor;
  finalAmount: Minor;
  discountAmount: Minor;
  /** The coupon's percentage on this line (percentage coupons only), else null. */
  discountPercent: number | null;
  isProrated: boolean;
  prorationDescription: string | null;
};

/** spec §3 Totaled invoice (the processor's ids are added when it is created there). */
export type TotaledInvoice = {
  total: Minor;
  subtotal: Minor;
  couponDiscount: Minor;
  /** What each renewal after this charge costs (0 for a one-time product). */
  recurringFinalAmount: Minor;
  /** When the next charge is made; null for a one-time product. */
  nextBillingDate: DayKey | null;
  isProrated: boolean;
  prorationDescription: string | null;
  lineItems: LineItem[];
};

export class TotalingError extends Error {}

/** Whether the coupon discounts this product at all (and so uses a redemption when charged). */
export function couponApplies(
  coupon: CouponTerms | null,
  productId: string,
): coupon is CouponTerms {
  return (
    coupon !== null &&
    coupon.type !== 'none' &&
    (coupon.appliesToProductIds.length === 0 || coupon.appliesToProductIds.includes(productId))
  );
}

/** What a coupon takes off `amount`: never more than the amount, never negative. */
export function couponDiscountOf(coupon: CouponTerms, amount: Minor): Minor {
  if (amount <= 0) return 0;
  if (coupon.type === 'percentage') {
    const percent = Math.min(100, Math.max(0, coupon.amount));
    return divideRounded(amount * percent, 100);
  }
  if (coupon.type === 'fixed') return Math.min(amount, Math.max(0, coupon.amount));
  return 0;
}

/**
 * Whether the coupon still discounts a charge on `chargeDay` given the first real charge's day
 * (the purchase's charge here; every renewal's in renewal-totaling.ts).
 */
export function discountsChargeOn(
  coupon: CouponTerms,
  chargeDay: DayKey,
  firstChargeDay: DayKey,
): boolean {
  switch (coupon.duration.durationType) {
    case 'forever':
      return true;
    case 'once':
      return chargeDay === firstChargeDay;
    case 'repeating':
      return chargeDay < addMonths(firstChargeDay, coupon.duration.durationInMonths ?? 0);
  }
}

export function totalInvoice(input: TotalingInput): TotaledInvoice {
  const { product, coupon, today, prorationMode } = input;
  const day = input.formatDay ?? ((d: DayKey) => d);
  const price = input.priceMinor ?? product.priceMinor;
  if (!isMinor(price) || price < 0) throw new TotalingError(`price ${price} is not minor units`);
  if (!isMinor(product.startupFeeMinor) || product.startupFeeMinor < 0) {
    throw new TotalingError(`start-up fee ${product.startupFeeMinor} is not minor units`);
  }
  const refusal = startDateRefusal(input.startDate, product.schedule, today);
  if (refusal) throw new TotalingError(refusal);
  const startDate = input.startDate || null;
  const recurring = product.type === 'recurring' && product.schedule !== 'one-time';

  // What the product line charges now, and when the next charge comes.
  let nowAmount: Minor;
  let nextBillingDate: DayKey | null = null;
  let prorationDescription: string | null = null;
  let isProrated = false;
  let description = product.name;

  if (!recurring || product.schedule === 'one-time') {
    nowAmount = price;
  } else if (startDate) {
    nowAmount = 0;
    nextBillingDate = startDate;
    description = `${product.name} — starts ${day(startDate)}, first charge then`;
  } else {
    const schedule = product.schedule;
    const unified = product.unifiedBillingConfig.enabled && isMonthlyCycle(schedule);
    const anchor = unified
      ? nextBillingDay(today, clampBillingDay(product.unifiedBillingConfig.billingDayOfMonth))
      : today;
    if (anchor === today) {
      nowAmount = price;
      nextBillingDate = addPeriods(today, schedule);
    } else if (prorationMode === 'delayed-billing') {
      nowAmount = 0;
      nextBillingDate = anchor;
      description = `${product.name} — billing starts ${day(anchor)}`;
    } else {
      const periodDays = daysBetween(subtractPeriod(anchor, schedule), anchor);
      const daysLeft = daysBetween(today, anchor);
      nowAmount = divideRounded(price * daysLeft, periodDays);
      nextBillingDate = anchor;
      isProrated = true;
      prorationDescription = `${daysLeft} of ${periodDays} days until ${day(anchor)}`;
    }
  }

  // The first charge that is not zero opens the coupon's duration.
  const firstChargeDay = nowAmount > 0 ? today : (nextBillingDate ?? today);
  const discounting = couponApplies(coupon, product.id) ? coupon : null;
  const nowDiscount =
    discounting && nowAmount > 0 && discountsChargeOn(discounting, today, firstChargeDay)
      ? couponDiscountOf(discounting, nowAmount)
      : 0;
  const percent = discounting?.type === 'percentage' ? discounting.amount : null;

  const lineItems: LineItem[] = [];
  if (chargesStartupFee(product.startupFeeMinor, startDate)) {
    lineItems.push({
      type: 'startup_fee',
      description: 'Start-up fee',
      stripeProductId: product.stripeProductId,
      originalAmount: product.startupFeeMinor,
      finalAmount: product.startupFeeMinor,
      discountAmount: 0,
      discountPercent: null,
      isProrated: false,
      prorationDescription: null,
    });
  }
  lineItems.push({
    type: 'subscription',
    description,
    stripeProductId: product.stripeProductId,
    originalAmount: nowAmount,
    finalAmount: nowAmount - nowDiscount,
    discountAmount: nowDiscount,
    discountPercent: nowDiscount > 0 ? percent : null,
    isProrated,
    prorationDescription,
  });

  const recurringFinalAmount =
    recurring && nextBillingDate
      ? price -
        (discounting && discountsChargeOn(discounting, nextBillingDate, firstChargeDay)
          ? couponDiscountOf(discounting, price)
          : 0)
      : 0;
  const subtotal = lineItems.reduce((sum, line) => sum + line.originalAmount, 0);
  const couponDiscount = lineItems.reduce((sum, line) => sum + line.discountAmount, 0);
  return {
    total: subtotal - couponDiscount,
    subtotal,
    couponDiscount,
    recurringFinalAmount,
    nextBillingDate,
    isProrated,
    prorationDescription,
    lineItems,
  };
}
