import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addPeriods, nextBillingDay, schedules, type Schedule } from './billing-calendar.ts';
import { chargeFlowMessages, prorationModes, startDateWindowDays } from './charge-flow.rules.ts';
import type { CouponTerms } from './products.zod.ts';
import { TotalingError, totalInvoice, type TotalingProduct } from './totaling.ts';
import { addDays } from '../time-tracking/org-calendar.ts';

const productId = '0b6f4f2e-5a3a-4c55-9d1e-3f1d2c3b4a51';
const monthly = (over: Partial<TotalingProduct> = {}): TotalingProduct => ({
  id: productId,
  name: 'Unlimited classes',
  type: 'recurring',
  schedule: 'month',
  priceMinor: 9_900,
  startupFeeMinor: 0,
  stripeProductId: 'prod_1',
  unifiedBillingConfig: { enabled: false, billingDayOfMonth: 1 },
  ...over,
});
const unified = (billingDayOfMonth: number, over: Partial<TotalingProduct> = {}) =>
  monthly({ unifiedBillingConfig: { enabled: true, billingDayOfMonth }, ...over });
const coupon = (
  type: CouponTerms['type'],
  amount: number,
  durationType: CouponTerms['duration']['durationType'] = 'forever',
  durationInMonths: number | null = null,
): CouponTerms => ({
  type,
  amount,
  appliesToProductIds: [],
  duration: { durationType, durationInMonths },
});

describe('totaling: the plain cases', () => {
  it('charges a monthly product in full today, next on the same day next month', () => {
    const invoice = totalInvoice({
      product: monthly(),
      coupon: null,
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice).toEqual({
      total: 9_900,
      subtotal: 9_900,
      couponDiscount: 0,
      recurringFinalAmount: 9_900,
      nextBillingDate: '2026-12-24',
      isProrated: false,
      prorationDescription: null,
      lineItems: [
        {
          type: 'subscription',
          description: 'Unlimited classes',
          stripeProductId: 'prod_1',
          originalAmount: 9_900,
          finalAmount: 9_900,
          discountAmount: 0,
          discountPercent: null,
          isProrated: false,
          prorationDescription: null,
        },
      ],
    });
  });

  it.each<[Schedule, string]>([
    ['week', '2026-12-01'],
    ['bi-weekly', '2026-12-08'],
    ['month', '2026-12-24'],
    ['quarter', '2027-02-24'],
    ['bi-yearly', '2027-05-24'],
    ['year', '2027-11-24'],
  ])('bills a %s product next on %s', (schedule, next) => {
    const invoice = totalInvoice({
      product: monthly({ schedule }),
      coupon: null,
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice.nextBillingDate).toBe(next);
    expect(invoice.total).toBe(9_900);
  });

  it('charges a one-time product once, with no next billing and nothing recurring', () => {
    const invoice = totalInvoice({
      product: monthly({ type: 'one-time', schedule: 'one-time', priceMinor: 15_000 }),
      coupon: coupon('fixed', 2_500, 'once'),
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice.total).toBe(12_500);
    expect(invoice.nextBillingDate).toBeNull();
    expect(invoice.recurringFinalAmount).toBe(0);
  });

  it('adds the start-up fee, undiscounted, to a charge made now', () => {
    const invoice = totalInvoice({
      product: monthly({ startupFeeMinor: 2_000 }),
      coupon: coupon('percentage', 50),
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice.lineItems.map((l) => [l.type, l.originalAmount, l.finalAmount])).toEqual([
      ['startup_fee', 2_000, 2_000],
      ['subscription', 9_900, 4_950],
    ]);
    expect(invoice).toMatchObject({ subtotal: 11_900, couponDiscount: 4_950, total: 6_950 });
  });

  it('charges nothing now for a delayed start, no start-up fee, the first charge on the start date', () => {
    const invoice = totalInvoice({
      product: monthly({ startupFeeMinor: 2_000 }),
      coupon: null,
      today: '2026-11-24',
      startDate: '2026-12-03',
      prorationMode: 'charge-prorated',
      formatDay: () => 'Dec 3, 2026',
    });
    expect(invoice.total).toBe(0);
    expect(invoice.lineItems).toHaveLength(1);
    expect(invoice.lineItems[0]?.description).toBe(
      'Unlimited classes — starts Dec 3, 2026, first charge then',
    );
    expect(invoice.nextBillingDate).toBe('2026-12-03');
    expect(invoice.recurringFinalAmount).toBe(9_900);
  });
});

describe('totaling: unified billing and proration', () => {
  it.each<[number, string, string, number, string]>([
    // billing day, today, next billing, amount now (9,900 a month), description
    [1, '2026-11-24', '2026-12-01', 2_310, '7 of 30 days until 2026-12-01'],
    [15, '2026-11-24', '2026-12-15', 6_930, '21 of 30 days until 2026-12-15'],
    // Oct 28 → Nov 28 is 31 days: 9,900 × 4 / 31 = 1,277.4.
    [28, '2026-11-24', '2026-11-28', 1_277, '4 of 31 days until 2026-11-28'],
    // Month ends and leap years: February's 28 or 29 days are the period before March's day.
    [1, '2027-02-20', '2027-03-01', 3_182, '9 of 28 days until 2027-03-01'],
    [1, '2028-02-20', '2028-03-01', 3_414, '10 of 29 days until 2028-03-01'],
    [28, '2026-01-31', '2026-02-28', 8_942, '28 of 31 days until 2026-02-28'],
    [15, '2026-12-31', '2027-01-15', 4_790, '15 of 31 days until 2027-01-15'],
  ])(
    'billing day %i, starting %s: next %s, %i charged now (%s)',
    (billingDay, today, next, now, description) => {
      const invoice = totalInvoice({
        product: unified(billingDay),
        coupon: null,
        today,
        startDate: null,
        prorationMode: 'charge-prorated',
      });
      expect(invoice.nextBillingDate).toBe(next);
      expect(invoice.total).toBe(now);
      expect(invoice.isProrated).toBe(true);
      expect(invoice.prorationDescription).toBe(description);
      expect(invoice.recurringFinalAmount).toBe(9_900);
    },
  );

  it('charges in full, unprorated, when today is the billing day', () => {
    const invoice = totalInvoice({
      product: unified(15),
      coupon: null,
      today: '2026-12-15',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice).toMatchObject({
      total: 9_900,
      isProrated: false,
      nextBillingDate: '2027-01-15',
    });
  });

  it('delayed billing charges nothing until the billing day (the start-up fee still now)', () => {
    const invoice = totalInvoice({
      product: unified(1, { startupFeeMinor: 1_500 }),
      coupon: null,
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'delayed-billing',
    });
    expect(invoice.total).toBe(1_500);
    expect(invoice.nextBillingDate).toBe('2026-12-01');
    expect(invoice.isProrated).toBe(false);
    expect(invoice.lineItems[1]?.description).toBe('Unlimited classes — billing starts 2026-12-01');
  });

  it('prorates a quarterly product over the quarter before its billing day', () => {
    const invoice = totalInvoice({
      product: unified(1, { schedule: 'quarter', priceMinor: 27_000 }),
      coupon: null,
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    // 2026-09-01 → 2026-12-01 is 91 days; 7 left: 27,000 × 7 / 91 = 2,076.9 → 2,077.
    expect(invoice.prorationDescription).toBe('7 of 91 days until 2026-12-01');
    expect(invoice.total).toBe(2_077);
    expect(invoice.nextBillingDate).toBe('2026-12-01');
  });

  it('ignores a billing day on weekly schedules, which are not counted in months', () => {
    const invoice = totalInvoice({
      product: unified(1, { schedule: 'week' }),
      coupon: null,
      today: '2026-11-24',
      startDate: null,
      prorationMode: 'charge-prorated',
    });
    expect(invoice).toMatchObject({
      total: 9_900,
      isProrated: false,
      nextBillingDate: '2026-12-01',
    });
  });
});

describe('totaling: coupons', () => {
  const base = { today: '2026-11-24', startDate: null, prorationMode: 'charge-prorated' } as const;

  it.each<[string, CouponTerms, number, number, number | null]>([
    // name, coupon, discount now, each renewal, discountPercent
    ['10% forever', coupon('percentage', 10), 990, 8_910, 10],
    ['10% once', coupon('percentage', 10, 'once'), 990, 9_900, 10],
    ['25% for 3 months', coupon('percentage', 25, 'repeating', 3), 2_475, 7_425, 25],
    ['25% for 1 month', coupon('percentage', 25, 'repeating', 1), 2_475, 9_900, 25],
    ['$5 forever', coupon('fixed', 500), 500, 9_400, null],
    ['$5 once', coupon('fixed', 500, 'once'), 500, 9_900, null],
    ['$150 fixed, more than the price', coupon('fixed', 15_000), 9_900, 0, null],
    ['100%', coupon('percentage', 100), 9_900, 0, 100],
    ['none', coupon('none', 0), 0, 9_900, null],
  ])('%s', (_name, terms, now, renewal, percent) => {
    const invoice = totalInvoice({ ...base, product: monthly(), coupon: terms });
    expect(invoice.couponDiscount).toBe(now);
    expect(invoice.total).toBe(9_900 - now);
    expect(invoice.recurringFinalAmount).toBe(renewal);
    expect(invoice.lineItems[0]?.discountPercent).toBe(percent);
  });

  it('applies only to the products it names', () => {
    const other = { ...coupon('percentage', 50), appliesToProductIds: ['someone-else'] };
    const invoice = totalInvoice({ ...base, product: monthly(), coupon: other });
    expect(invoice.couponDiscount).toBe(0);
    const named = { ...coupon('percentage', 50), appliesToProductIds: [productId] };
    expect(totalInvoice({ ...base, product: monthly(), coupon: named }).couponDiscount).toBe(4_950);
  });

  it('keeps a once coupon for the first real charge when nothing is charged now', () => {
    const invoice = totalInvoice({
      ...base,
      product: unified(1),
      coupon: coupon('percentage', 20, 'once'),
      prorationMode: 'delayed-billing',
    });
    expect(invoice.total).toBe(0);
    expect(invoice.recurringFinalAmount).toBe(7_920);
  });

  it('discounts the prorated amount, not the whole month', () => {
    const invoice = totalInvoice({
      ...base,
      product: unified(1),
      coupon: coupon('percentage', 10),
    });
    // 2,310 prorated; 10% = 231.
    expect(invoice.couponDiscount).toBe(231);
    expect(invoice.total).toBe(2_079);
  });
});

describe('totaling: refusals', () => {
  it.each<[Schedule, string, string]>([
    ['month', '2026-11-24', chargeFlowMessages.startTooEarly],
    ['month', '2026-12-25', chargeFlowMessages.startTooLate(30)],
    ['week', '2026-12-01', chargeFlowMessages.startTooLate(6)],
    ['one-time', '2026-11-25', chargeFlowMessages.oneTimeStartsNow],
    ['month', '2026-02-30', chargeFlowMessages.invalidDate],
  ])('refuses a %s product starting %s', (schedule, startDate, message) => {
    const product =
      schedule === 'one-time' ? monthly({ type: 'one-time', schedule }) : monthly({ schedule });
    expect(() =>
      totalInvoice({
        product,
        coupon: null,
        today: '2026-11-24',
        startDate,
        prorationMode: 'charge-prorated',
      }),
    ).toThrow(new TotalingError(message));
  });

  it('refuses amounts that are not whole minor units', () => {
    expect(() =>
      totalInvoice({
        product: monthly({ priceMinor: 99.5 }),
        coupon: null,
        today: '2026-11-24',
        startDate: null,
        prorationMode: 'charge-prorated',
      }),
    ).toThrow(TotalingError);
  });
});

describe('totaling: properties (fast-check)', () => {
  const day = fc
    .date({
      min: new Date('2024-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10));
  const recurringSchedule = fc.constantFrom(...schedules.filter((s) => s !== 'one-time'));
  const couponTerms: fc.Arbitrary<CouponTerms | null> = fc.option(
    fc
      .oneof(
        fc.record({
          type: fc.constant('percentage' as const),
          amount: fc.integer({ min: 1, max: 100 }),
        }),
        fc.record({
          type: fc.constant('fixed' as const),
          amount: fc.integer({ min: 1, max: 200_000 }),
        }),
        fc.record({ type: fc.constant('none' as const), amount: fc.constant(0) }),
      )
      .chain((terms) =>
        fc
          .oneof(
            fc.constant({ durationType: 'forever' as const, durationInMonths: null }),
            fc.constant({ durationType: 'once' as const, durationInMonths: null }),
            fc
              .integer({ min: 1, max: 36 })
              .map((m) => ({ durationType: 'repeating' as const, durationInMonths: m })),
          )
          .map((duration) => ({ ...terms, appliesToProductIds: [], duration })),
      ),
  );
  const scenario = fc.record({
    schedule: recurringSchedule,
    price: fc.integer({ min: 0, max: 100_000_000 }),
    fee: fc.integer({ min: 0, max: 1_000_000 }),
    unifiedBilling: fc.boolean(),
    billingDay: fc.integer({ min: -5, max: 40 }),
    coupon: couponTerms,
    today: day,
    delayDays: fc.option(fc.integer({ min: 1, max: 365 })),
    mode: fc.constantFrom(...prorationModes),
  });
  type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
  const run = (s: Scenario) => {
    const startDate =
      s.delayDays !== null && s.delayDays <= startDateWindowDays[s.schedule]
        ? addDays(s.today, s.delayDays)
        : null;
    return totalInvoice({
      product: monthly({
        schedule: s.schedule,
        priceMinor: s.price,
        startupFeeMinor: s.fee,
        unifiedBillingConfig: { enabled: s.unifiedBilling, billingDayOfMonth: s.billingDay },
      }),
      coupon: s.coupon,
      today: s.today,
      startDate,
      prorationMode: s.mode,
    });
  };

  it('total = sum of the line items = subtotal − discount, all whole and never negative', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const invoice = run(s);
        const sum = invoice.lineItems.reduce((total, line) => total + line.finalAmount, 0);
        expect(invoice.total).toBe(sum);
        expect(invoice.total).toBe(invoice.subtotal - invoice.couponDiscount);
        for (const value of [
          invoice.total,
          invoice.subtotal,
          invoice.couponDiscount,
          invoice.recurringFinalAmount,
        ]) {
          expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
        }
        for (const line of invoice.lineItems) {
          expect(line.finalAmount).toBe(line.originalAmount - line.discountAmount);
          expect(line.finalAmount).toBeGreaterThanOrEqual(0);
          // A discount never exceeds what it discounts.
          expect(line.discountAmount).toBeLessThanOrEqual(line.originalAmount);
          expect(line.discountAmount).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('prorates between nothing and the full period, and renewals never cost more than the price', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const invoice = run(s);
        const product = invoice.lineItems.at(-1)!;
        expect(product.originalAmount).toBeGreaterThanOrEqual(0);
        expect(product.originalAmount).toBeLessThanOrEqual(s.price);
        expect(invoice.recurringFinalAmount).toBeLessThanOrEqual(s.price);
        if (invoice.isProrated) expect(product.originalAmount).toBeLessThanOrEqual(s.price);
      }),
      { numRuns: 2_000 },
    );
  });

  it('always bills next after today, within one period, on the billing day when unified', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const invoice = run(s);
        const next = invoice.nextBillingDate!;
        expect(next > s.today).toBe(true);
        const monthlyCycle = !['week', 'bi-weekly'].includes(s.schedule);
        if (s.delayDays === null || s.delayDays > startDateWindowDays[s.schedule]) {
          expect(next <= addPeriods(s.today, s.schedule as Exclude<Schedule, 'one-time'>)).toBe(
            true,
          );
          if (s.unifiedBilling && monthlyCycle) {
            expect(
              next === nextBillingDay(s.today, s.billingDay) ||
                next === addPeriods(s.today, s.schedule as Exclude<Schedule, 'one-time'>),
            ).toBe(true);
            expect(Number(next.slice(8))).toBe(Math.min(28, Math.max(1, s.billingDay)));
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
