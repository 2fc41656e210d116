import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billingDateAfter,
  schedules,
  type RecurringSchedule,
} from '@platform/schema/payments/billing-calendar';
import { startDateWindowDays } from '@platform/schema/payments/charge-flow.rules';
import type { CouponTerms } from '@platform/schema/payments/products.zod';
import {
  billingCycleOf,
  renewalDiscountPlan,
  type RenewalDiscountPlan,
} from '@platform/schema/payments/renewal-totaling';
import { totalInvoice } from '@platform/schema/payments/totaling';
import { addDays, dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { addMonthsUtc, noonOn, stripeCouponDuration } from './stripe-coupons.ts';

const zone = 'America/New_York';
const plan = (count: number, lastDiscounted: string, firstFullPrice: string) =>
  ({ forever: false, count, lastDiscounted, firstFullPrice }) as const;

/** Which of these renewals Stripe discounts with that duration, made at `subscribedAt`. */
function discountedByStripe(
  duration: ReturnType<typeof stripeCouponDuration>,
  subscribedAt: Date,
  renewals: string[],
) {
  if (duration.duration === 'forever') return renewals;
  if (duration.duration === 'once') return renewals.slice(0, 1);
  const end = addMonthsUtc(subscribedAt.getTime(), duration.duration_in_months);
  return renewals.filter((day) => noonOn(day, zone) < end);
}

describe('our coupon’s duration at Stripe', () => {
  it.each<[string, RenewalDiscountPlan, string, ReturnType<typeof stripeCouponDuration>]>([
    ['forever', { forever: true }, '2026-11-24T15:00:00Z', { duration: 'forever' }],
    [
      'repeating 3 months, bought in the morning: Stripe’s 3 months end before Feb 24’s noon',
      plan(2, '2027-01-24', '2027-02-24'),
      '2026-11-24T15:00:00Z',
      { duration: 'repeating', duration_in_months: 3 },
    ],
    [
      'repeating 3 months, bought in the afternoon: 3 months would reach Feb 24’s invoice, 2 do not',
      plan(2, '2027-01-24', '2027-02-24'),
      '2026-11-24T19:00:00Z',
      { duration: 'repeating', duration_in_months: 2 },
    ],
    [
      'once, on a delayed start: a month covers the first billing and not the next',
      plan(1, '2026-12-01', '2027-01-01'),
      '2026-11-24T15:00:00Z',
      { duration: 'repeating', duration_in_months: 1 },
    ],
    [
      'once, on a weekly delayed start: no month fits between two weeks, Stripe’s once',
      plan(1, '2026-11-30', '2026-12-07'),
      '2026-11-24T15:00:00Z',
      { duration: 'once' },
    ],
    [
      'repeating 1 month on a weekly subscription: four weeks',
      plan(4, '2026-12-22', '2026-12-29'),
      '2026-11-24T15:00:00Z',
      { duration: 'repeating', duration_in_months: 1 },
    ],
  ])('%s', (_name, renewals, subscribedAt, expected) => {
    expect(stripeCouponDuration(renewals, new Date(subscribedAt), zone)).toEqual(expected);
  });

  it('never discounts fewer renewals than our rules; exactly ours for renewals months apart after a purchase charged at once', () => {
    const terms: fc.Arbitrary<CouponTerms> = fc
      .oneof(
        fc.constant({ durationType: 'once' as const, durationInMonths: null }),
        fc.record({
          durationType: fc.constant('repeating' as const),
          durationInMonths: fc.integer({ min: 1, max: 36 }),
        }),
      )
      .map((duration) => ({ type: 'percentage', amount: 20, appliesToProductIds: [], duration }));
    fc.assert(
      fc.property(
        fc.constantFrom(...schedules.filter((s): s is RecurringSchedule => s !== 'one-time')),
        terms,
        fc.date({ min: new Date('2025-01-01'), max: new Date('2029-12-31'), noInvalidDate: true }),
        fc.option(fc.integer({ min: 1, max: 365 })),
        (schedule, coupon, at, delay) => {
          // Not near noon, where the hour decides: within an hour, two across a change of
          // daylight saving (Stripe counts the months in UTC, we bill at noon local time).
          const hoursFromNoon = (at.getTime() - noonOn(dayKeyOf(at.getTime(), zone), zone)) / 3.6e6;
          fc.pre(Math.abs(hoursFromNoon) > 2.1);
          const today = dayKeyOf(at.getTime(), zone);
          const startDate =
            delay === null
              ? null
              : addDays(today, 1 + ((delay - 1) % startDateWindowDays[schedule]));
          const product = {
            id: 'p',
            name: 'P',
            type: 'recurring' as const,
            schedule,
            priceMinor: 9_900,
            startupFeeMinor: 0,
            stripeProductId: null,
            unifiedBillingConfig: { enabled: false, billingDayOfMonth: 1 },
          };
          const first = totalInvoice({
            product,
            coupon,
            today,
            startDate,
            prorationMode: 'charge-prorated',
          });
          const cycle = billingCycleOf(startDate ?? today, first);
          const renewalPlan = renewalDiscountPlan({
            coupon,
            productId: 'p',
            priceMinor: 9_900,
            schedule,
            cycle,
            firstRenewal: first.nextBillingDate!,
          });
          if (!renewalPlan || renewalPlan.forever) return;
          const renewals = [first.nextBillingDate!];
          while (renewals.length < renewalPlan.count + 3) {
            renewals.push(billingDateAfter(cycle.anchor, schedule, renewals.at(-1)!));
          }
          const ours = renewals.slice(0, renewalPlan.count);
          const stripes = discountedByStripe(
            stripeCouponDuration(renewalPlan, at, zone),
            at,
            renewals,
          );
          expect(stripes.slice(0, ours.length)).toEqual(ours);
          // Exactly ours when a whole number of Stripe's months (counted in UTC from the
          // purchase, clamped at a month's end) ends between our last discounted renewal and
          // our first at full price; when none does (bought on the evening of the 30th in New
          // York, the 31st in UTC: nine months end before September 30's renewal, ten after
          // October 30's), one renewal more — never fewer.
          const monthsApart = !['week', 'bi-weekly'].includes(schedule);
          if (monthsApart && startDate === null && ours.length > 0) {
            const lastOurs = noonOn(ours.at(-1)!, zone) + 3.6e6;
            const firstFull = noonOn(renewals[ours.length]!, zone) - 3.6e6;
            const fits = Array.from({ length: 40 }, (_, m) => m + 1).some(
              (m) =>
                addMonthsUtc(at.getTime(), m) > lastOurs &&
                addMonthsUtc(at.getTime(), m) <= firstFull,
            );
            if (fits) expect(stripes).toEqual(ours);
            else expect(stripes.length).toBeLessThanOrEqual(ours.length + 1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
