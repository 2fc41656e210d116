import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, schedules, type RecurringSchedule } from './billing-calendar.ts';
import { startDateWindowDays } from './charge-flow.rules.ts';
import type { CouponTerms } from './products.zod.ts';
import {
  billingCycleOf,
  renewalDiscountPlan,
  totalRenewal,
  type BillingCycle,
} from './renewal-totaling.ts';
import { totalInvoice, type TotaledInvoice, type TotalingProduct } from './totaling.ts';
import { addDays } from '../time-tracking/org-calendar.ts';

const productId = '0b6f4f2e-5a3a-4c55-9d1e-3f1d2c3b4a51';
const product = (
  schedule: RecurringSchedule = 'month',
  billingDay: number | null = null,
): TotalingProduct => ({
  id: productId,
  name: 'Unlimited classes',
  type: 'recurring',
  schedule,
  priceMinor: 9_900,
  startupFeeMinor: 0,
  stripeProductId: 'prod_1',
  unifiedBillingConfig: { enabled: billingDay !== null, billingDayOfMonth: billingDay ?? 1 },
});
const coupon = (
  type: 'percentage' | 'fixed',
  amount: number,
  durationType: CouponTerms['duration']['durationType'],
  durationInMonths: number | null = null,
): CouponTerms => ({
  type,
  amount,
  appliesToProductIds: [],
  duration: { durationType, durationInMonths },
});

/** A purchase as the charge flow totals it, and the cycle its subscription renews by. */
function purchase(input: {
  today: string;
  schedule?: RecurringSchedule;
  billingDay?: number | null;
  startDate?: string | null;
  mode?: 'charge-prorated' | 'delayed-billing';
  coupon?: CouponTerms | null;
}) {
  const p = product(input.schedule, input.billingDay ?? null);
  const first = totalInvoice({
    product: p,
    coupon: input.coupon ?? null,
    today: input.today,
    startDate: input.startDate ?? null,
    prorationMode: input.mode ?? 'charge-prorated',
  });
  const startedOn = input.startDate ?? input.today;
  return { p, first, cycle: billingCycleOf(startedOn, first) };
}

/** The renewals that follow a purchase: their billing dates and totals, `count` of them. */
function renewals(
  p: TotalingProduct,
  first: TotaledInvoice,
  cycle: BillingCycle,
  terms: CouponTerms | null,
  count: number,
) {
  const schedule = p.schedule as RecurringSchedule;
  const list: Array<{ on: string; total: number; next: string; recurring: number }> = [];
  let on = first.nextBillingDate!;
  for (let i = 0; i < count; i++) {
    const invoice = totalRenewal({
      product: { id: p.id, name: p.name, schedule, stripeProductId: p.stripeProductId },
      priceMinor: p.priceMinor,
      coupon: terms,
      cycle,
      periodStart: on,
    });
    list.push({
      on,
      total: invoice.total,
      next: invoice.nextBillingDate!,
      recurring: invoice.recurringFinalAmount,
    });
    on = invoice.nextBillingDate!;
  }
  return list;
}
const totals = (list: ReturnType<typeof renewals>) => list.map((r) => [r.on, r.total]);

describe('renewal totaling: coupons by their duration', () => {
  it.each<[string, CouponTerms | null, string | null, Array<[string, number]>]>([
    [
      'no coupon: the price every time',
      null,
      null,
      [
        ['2026-12-24', 9_900],
        ['2027-01-24', 9_900],
        ['2027-02-24', 9_900],
      ],
    ],
    [
      'once, used by the purchase: every renewal at the full price',
      coupon('percentage', 10, 'once'),
      null,
      [
        ['2026-12-24', 9_900],
        ['2027-01-24', 9_900],
      ],
    ],
    [
      'once, on a delayed start that charged nothing: the first billing only',
      coupon('percentage', 10, 'once'),
      '2026-12-01',
      [
        ['2026-12-01', 8_910],
        ['2027-01-01', 9_900],
        ['2027-02-01', 9_900],
      ],
    ],
    [
      'repeating 3 months: the renewals whose period starts before Feb 24',
      coupon('percentage', 25, 'repeating', 3),
      null,
      [
        ['2026-12-24', 7_425],
        ['2027-01-24', 7_425],
        ['2027-02-24', 9_900],
        ['2027-03-24', 9_900],
      ],
    ],
    [
      'repeating 3 months on a delayed start: the months count from the first billing date',
      coupon('fixed', 1_500, 'repeating', 3),
      '2026-12-01',
      [
        ['2026-12-01', 8_400],
        ['2027-01-01', 8_400],
        ['2027-02-01', 8_400],
        ['2027-03-01', 9_900],
      ],
    ],
    [
      'forever, percentage: every renewal',
      coupon('percentage', 33, 'forever'),
      null,
      [
        ['2026-12-24', 6_633],
        ['2027-01-24', 6_633],
      ],
    ],
    [
      'forever, fixed above the price: nothing, never below zero',
      coupon('fixed', 20_000, 'forever'),
      null,
      [
        ['2026-12-24', 0],
        ['2027-01-24', 0],
      ],
    ],
  ])('%s', (_name, terms, startDate, expected) => {
    const { p, first, cycle } = purchase({ today: '2026-11-24', startDate, coupon: terms });
    const list = renewals(p, first, cycle, terms, expected.length);
    expect(totals(list)).toEqual(expected);
    // What each renewal says the next will cost is what the next then costs.
    for (let i = 0; i + 1 < list.length; i++) expect(list[i]!.recurring).toBe(list[i + 1]!.total);
  });

  it('keeps the figures of a renewal line exact: original, discount, final and percent', () => {
    const { p, cycle } = purchase({ today: '2026-11-24' });
    const invoice = totalRenewal({
      product: { id: p.id, name: p.name, schedule: 'month', stripeProductId: 'prod_1' },
      priceMinor: 4_999,
      coupon: coupon('percentage', 15, 'forever'),
      cycle,
      periodStart: '2026-12-24',
      formatDay: (d) => `<${d}>`,
    });
    expect(invoice).toEqual({
      total: 4_249,
      subtotal: 4_999,
      couponDiscount: 750,
      recurringFinalAmount: 4_249,
      nextBillingDate: '2027-01-24',
      isProrated: false,
      prorationDescription: null,
      lineItems: [
        {
          type: 'subscription',
          description: 'Unlimited classes — <2026-12-24> to <2027-01-24>',
          stripeProductId: 'prod_1',
          originalAmount: 4_999,
          finalAmount: 4_249,
          discountAmount: 750,
          discountPercent: 15,
          isProrated: false,
          prorationDescription: null,
        },
      ],
    });
  });

  it('leaves a coupon for another product out', () => {
    const terms = {
      ...coupon('percentage', 50, 'forever'),
      appliesToProductIds: [crypto.randomUUID()],
    };
    const { p, first, cycle } = purchase({ today: '2026-11-24', coupon: terms });
    expect(totals(renewals(p, first, cycle, terms, 1))).toEqual([['2026-12-24', 9_900]]);
  });
});

describe('renewal totaling: the calendar', () => {
  it.each<[RecurringSchedule, string[]]>([
    ['week', ['2026-12-01', '2026-12-08', '2026-12-15']],
    ['bi-weekly', ['2026-12-08', '2026-12-22', '2027-01-05']],
    ['month', ['2026-12-24', '2027-01-24', '2027-02-24']],
    ['quarter', ['2027-02-24', '2027-05-24', '2027-08-24']],
    ['bi-yearly', ['2027-05-24', '2027-11-24', '2028-05-24']],
    ['year', ['2027-11-24', '2028-11-24', '2029-11-24']],
  ])('renews a %s subscription on %j', (schedule, dates) => {
    const { p, first, cycle } = purchase({ today: '2026-11-24', schedule });
    expect(renewals(p, first, cycle, null, 3).map((r) => r.on)).toEqual(dates);
  });

  it.each<[number, string, string[]]>([
    [1, 'prorated to Dec 1', ['2026-12-01', '2027-01-01', '2027-02-01']],
    [15, 'prorated to Dec 15', ['2026-12-15', '2027-01-15', '2027-02-15']],
    [28, 'prorated to Nov 28', ['2026-11-28', '2026-12-28', '2027-01-28']],
    [31, 'clamped to the 28th', ['2026-11-28', '2026-12-28', '2027-01-28']],
  ])('renews on billing day %i (%s), every month on that day', (billingDay, _how, dates) => {
    const { p, first, cycle } = purchase({ today: '2026-11-24', billingDay });
    expect(first.isProrated).toBe(true);
    const list = renewals(p, first, cycle, null, 3);
    expect(list.map((r) => r.on)).toEqual(dates);
    expect(list.every((r) => r.total === 9_900)).toBe(true);
  });

  it('keeps unified billing on its day for a quarter, with delayed billing', () => {
    const { p, first, cycle } = purchase({
      today: '2026-11-24',
      schedule: 'quarter',
      billingDay: 15,
      mode: 'delayed-billing',
    });
    expect(first.total).toBe(0);
    expect(renewals(p, first, cycle, null, 3).map((r) => r.on)).toEqual([
      '2026-12-15',
      '2027-03-15',
      '2027-06-15',
    ]);
  });

  it('bills a subscription begun on the 31st on each month’s last day, and back on the 31st', () => {
    const { p, first, cycle } = purchase({ today: '2027-01-31' });
    expect(renewals(p, first, cycle, null, 4).map((r) => r.on)).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
  });

  it('knows leap years: Feb 29 in 2028, and a yearly subscription begun on Feb 29', () => {
    const monthly = purchase({ today: '2028-01-31' });
    expect(renewals(monthly.p, monthly.first, monthly.cycle, null, 2).map((r) => r.on)).toEqual([
      '2028-02-29',
      '2028-03-31',
    ]);
    const yearly = purchase({ today: '2028-02-29', schedule: 'year' });
    expect(renewals(yearly.p, yearly.first, yearly.cycle, null, 4).map((r) => r.on)).toEqual([
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });
});

describe('renewal totaling: the plan a processor follows', () => {
  it.each<[string, CouponTerms | null, string | null, unknown]>([
    ['no coupon', null, null, null],
    ['once, used by the purchase', coupon('percentage', 10, 'once'), null, null],
    [
      'once on a delayed start',
      coupon('percentage', 10, 'once'),
      '2026-12-01',
      { forever: false, count: 1, lastDiscounted: '2026-12-01', firstFullPrice: '2027-01-01' },
    ],
    [
      'repeating 3 months',
      coupon('fixed', 500, 'repeating', 3),
      null,
      { forever: false, count: 2, lastDiscounted: '2027-01-24', firstFullPrice: '2027-02-24' },
    ],
    ['forever', coupon('fixed', 500, 'forever'), null, { forever: true }],
  ])('%s', (_name, terms, startDate, plan) => {
    const { p, first, cycle } = purchase({ today: '2026-11-24', startDate, coupon: terms });
    expect(
      renewalDiscountPlan({
        coupon: terms,
        productId: p.id,
        priceMinor: p.priceMinor,
        schedule: 'month',
        cycle,
        firstRenewal: first.nextBillingDate!,
      }),
    ).toEqual(plan);
  });
});

describe('renewal totaling: properties', () => {
  const recurringSchedule = fc.constantFrom(
    ...schedules.filter((s): s is RecurringSchedule => s !== 'one-time'),
  );
  const terms: fc.Arbitrary<CouponTerms | null> = fc.option(
    fc
      .tuple(
        fc.oneof(
          fc.record({
            type: fc.constant('percentage' as const),
            amount: fc.integer({ min: 1, max: 100 }),
          }),
          fc.record({
            type: fc.constant('fixed' as const),
            amount: fc.integer({ min: 1, max: 200_000 }),
          }),
        ),
        fc.oneof(
          fc.constant({ durationType: 'forever' as const, durationInMonths: null }),
          fc.constant({ durationType: 'once' as const, durationInMonths: null }),
          fc.record({
            durationType: fc.constant('repeating' as const),
            durationInMonths: fc.integer({ min: 1, max: 36 }),
          }),
        ),
      )
      .map(([kind, duration]) => ({ ...kind, appliesToProductIds: [], duration })),
  );
  const scenario = fc
    .record({
      schedule: recurringSchedule,
      price: fc.integer({ min: 0, max: 100_000_000 }),
      coupon: terms,
      today: fc.date({
        min: new Date('2024-01-01'),
        max: new Date('2030-12-31'),
        noInvalidDate: true,
      }),
      billingDay: fc.option(fc.integer({ min: 1, max: 28 })),
      delayDays: fc.option(fc.integer({ min: 1, max: 365 })),
      mode: fc.constantFrom('charge-prorated' as const, 'delayed-billing' as const),
    })
    .map((s) => {
      const today = s.today.toISOString().slice(0, 10);
      const monthly = !['week', 'bi-weekly'].includes(s.schedule);
      const window = startDateWindowDays[s.schedule];
      return {
        ...s,
        today,
        billingDay: monthly ? s.billingDay : null,
        startDate: s.delayDays === null ? null : addDays(today, 1 + ((s.delayDays - 1) % window)),
      };
    });

  it('never charges a renewal below zero or above the price; a coupon stops when its duration says', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const p = { ...product(s.schedule, s.billingDay), priceMinor: s.price };
        const first = totalInvoice({
          product: p,
          coupon: s.coupon,
          today: s.today,
          startDate: s.startDate,
          prorationMode: s.mode,
        });
        const cycle = billingCycleOf(s.startDate ?? s.today, first);
        const list = renewals(p, first, cycle, s.coupon, 8);
        let previous = s.startDate ?? s.today;
        for (const [i, renewal] of list.entries()) {
          expect(renewal.total).toBeGreaterThanOrEqual(0);
          expect(renewal.total).toBeLessThanOrEqual(s.price);
          expect(renewal.on > previous || (i === 0 && renewal.on === previous)).toBe(true);
          if (i + 1 < list.length) expect(renewal.recurring).toBe(list[i + 1]!.total);
          previous = renewal.on;
        }
        const discounted = [
          ...(first.couponDiscount > 0 ? [cycle.couponFrom] : []),
          ...list.filter((r) => r.total < s.price).map((r) => r.on),
        ];
        const duration = s.coupon?.duration;
        if (duration?.durationType === 'once') expect(discounted.length).toBeLessThanOrEqual(1);
        if (duration?.durationType === 'repeating') {
          const end = addMonths(cycle.couponFrom, duration.durationInMonths!);
          expect(discounted.every((day) => day < end)).toBe(true);
        }
        // The plan a processor follows discounts exactly these renewals.
        const plan = renewalDiscountPlan({
          coupon: s.coupon,
          productId,
          priceMinor: s.price,
          schedule: s.schedule,
          cycle,
          firstRenewal: first.nextBillingDate!,
        });
        const renewedAtDiscount = list.filter((r) => r.total < s.price);
        if (!plan) expect(renewedAtDiscount).toEqual([]);
        else if (plan.forever) expect(renewedAtDiscount).toHaveLength(list.length);
        else if (plan.count <= list.length) {
          expect(renewedAtDiscount.map((r) => r.on)).toEqual(
            list.slice(0, plan.count).map((r) => r.on),
          );
          expect(renewedAtDiscount.at(-1)?.on).toBe(plan.lastDiscounted);
        }
      }),
      { numRuns: 300 },
    );
  });
});
