import Stripe from 'stripe';
import type { RenewalDiscountPlan } from '@platform/schema/payments/renewal-totaling';
import { startOfDay, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { RenewalDiscount } from './port.ts';

const HOUR_MS = 3_600_000;

/**
 * Noon of a day in the organisation's zone: when Stripe bills a renewal of ours (decision
 * 0057). Noon keeps the same calendar day across a daylight-saving change.
 */
export function noonOn(day: DayKey, timeZone: string): number {
  return startOfDay(day, timeZone) + 12 * HOUR_MS;
}

/** `instant` plus whole calendar months in UTC, on the same day or the month's last. */
export function addMonthsUtc(instant: number, months: number): number {
  const at = new Date(instant);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(at.getUTCDate(), lastDay),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
    at.getUTCMilliseconds(),
  );
}

export type StripeCouponDuration =
  | { duration: 'forever' }
  | { duration: 'once' }
  | { duration: 'repeating'; duration_in_months: number };

/**
 * How long Stripe keeps our coupon on a subscription (decision 0060). Stripe discounts every
 * invoice made before the discount ends, `duration_in_months` after the subscription was made;
 * ours discounts the renewals the plan names, counted from the first real charge. The months
 * are the fewest that end after the last renewal we discount and before the first we do not
 * (both billed at noon of their day), with an hour to spare either side. Where no whole number
 * of months falls between them — weekly renewals after a delayed start; a purchase made within
 * an hour of noon (two across a change of daylight saving); a delayed start whose months end on
 * the purchase's own day at a month's end; a purchase whose day in UTC is a later month's end
 * than its day here (the evening of the 30th in New York is the 31st in UTC, and Stripe's
 * months clamp there) — a single renewal is Stripe's own `once`, and more end at the first
 * month past the last: never fewer discounts than our rules give, at most one more.
 */
export function stripeCouponDuration(
  plan: RenewalDiscountPlan,
  subscribedAt: Date,
  timeZone: string,
): StripeCouponDuration {
  if (plan.forever) return { duration: 'forever' };
  const lastDiscounted = noonOn(plan.lastDiscounted, timeZone) + HOUR_MS;
  const firstFullPrice = noonOn(plan.firstFullPrice, timeZone) - HOUR_MS;
  let months = 1;
  while (addMonthsUtc(subscribedAt.getTime(), months) <= lastDiscounted) months++;
  if (addMonthsUtc(subscribedAt.getTime(), months) <= firstFullPrice || plan.count > 1) {
    return { duration: 'repeating', duration_in_months: months };
  }
  return { duration: 'once' };
}

/**
 * Our coupon at Stripe with the duration a subscription needs, made once by its id (the same
 * coupon and duration serve every subscription that needs them); returns the id.
 */
export async function stripeCouponFor(
  stripe: Stripe,
  request: {
    orgId: string;
    currency: string;
    discount: RenewalDiscount;
    subscribedAt: Date;
    timeZone: string;
  },
): Promise<string> {
  const { discount } = request;
  const currency = request.currency.toLowerCase();
  const duration = stripeCouponDuration(discount.plan, request.subscribedAt, request.timeZone);
  const lasts =
    duration.duration === 'repeating' ? `m${duration.duration_in_months}` : duration.duration;
  const id = `ours_${discount.couponId}_${lasts}${discount.type === 'fixed' ? `_${currency}` : ''}`;
  try {
    await stripe.coupons.create(
      {
        id,
        // Stripe's limit for a coupon's name.
        name: discount.name.slice(0, 40),
        ...duration,
        ...(discount.type === 'percentage'
          ? { percent_off: discount.amount }
          : { amount_off: discount.amount, currency }),
        metadata: { orgId: request.orgId, couponId: discount.couponId },
      },
      { idempotencyKey: `coupon:${id}` },
    );
  } catch (error) {
    // Made before, for another subscription with the same coupon and duration.
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      error.code === 'resource_already_exists'
    ) {
      return id;
    }
    throw error;
  }
  return id;
}
