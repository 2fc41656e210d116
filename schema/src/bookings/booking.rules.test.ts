import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  allowedChange,
  cancelByOf,
  customerMayCancel,
  pastCutoffMessage,
  paymentFor,
  waitlistOrder,
  type Holdings,
} from './booking.rules.ts';
import { bookingStatuses } from './booking.zod.ts';

const none: Holdings = { activeProductIds: new Set(), creditsByGroup: new Map() };
const terms = (over: Partial<Parameters<typeof paymentFor>[0]> = {}) => ({
  priceMinor: null,
  entitlingProductIds: [],
  punchCardGroupIds: [],
  ...over,
});

describe('paymentFor', () => {
  it('books a class nothing entitles and without a price for free', () => {
    expect(paymentFor(terms(), none)).toEqual({ kind: 'free' });
    expect(paymentFor(terms({ priceMinor: 0 }), none)).toEqual({ kind: 'free' });
  });
  it('prefers a subscription that includes the class over a credit', () => {
    const holdings = { activeProductIds: new Set(['p1']), creditsByGroup: new Map([['g1', 3]]) };
    expect(
      paymentFor(terms({ entitlingProductIds: ['p1'], punchCardGroupIds: ['g1'] }), holdings),
    ).toEqual({ kind: 'subscription', productId: 'p1' });
  });
  it('takes a credit from the group with most left, never from an empty one', () => {
    const holdings = {
      activeProductIds: new Set<string>(),
      creditsByGroup: new Map([
        ['g1', 1],
        ['g2', 4],
        ['g3', 0],
      ]),
    };
    expect(paymentFor(terms({ punchCardGroupIds: ['g3', 'g1', 'g2'] }), holdings)).toEqual({
      kind: 'credit',
      groupId: 'g2',
    });
    expect(paymentFor(terms({ punchCardGroupIds: ['g3'] }), holdings)).toEqual({ kind: 'none' });
  });
  it('asks for the price when nothing held pays, and refuses an entitled class without a price', () => {
    expect(paymentFor(terms({ priceMinor: 1500, punchCardGroupIds: ['g1'] }), none)).toEqual({
      kind: 'pay',
      priceMinor: 1500,
    });
    expect(paymentFor(terms({ entitlingProductIds: ['p1'] }), none)).toEqual({ kind: 'none' });
  });
  it('never pays with something the person does not hold (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('p1', 'p2', 'p3'), { maxLength: 3 }),
        fc.array(fc.constantFrom('g1', 'g2'), { maxLength: 2 }),
        fc.array(fc.constantFrom('p1', 'p2', 'p3'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('g1', 'g2'), fc.integer({ min: -2, max: 3 })),
        fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
        (products, groups, held, credits, priceMinor) => {
          const holdings = {
            activeProductIds: new Set(held),
            creditsByGroup: new Map(Object.entries(credits)),
          };
          const payment = paymentFor(
            terms({ entitlingProductIds: products, punchCardGroupIds: groups, priceMinor }),
            holdings,
          );
          if (payment.kind === 'subscription') expect(held).toContain(payment.productId);
          if (payment.kind === 'credit') expect(credits[payment.groupId]).toBeGreaterThan(0);
          if (payment.kind === 'free') expect(products.length + groups.length).toBe(0);
        },
      ),
    );
  });
});

describe('the cut-off', () => {
  const occurrence = {
    cancelBy: new Date(cancelByOf(Date.parse('2026-12-01T18:00:00.000Z'), 2)).toISOString(),
  };
  it('lets a place be cancelled until the cut-off and not after', () => {
    expect(occurrence.cancelBy).toBe('2026-12-01T16:00:00.000Z');
    expect(
      customerMayCancel({ status: 'booked' }, occurrence, Date.parse('2026-12-01T16:00:00.000Z')),
    ).toBe(true);
    expect(
      customerMayCancel({ status: 'booked' }, occurrence, Date.parse('2026-12-01T16:00:00.001Z')),
    ).toBe(false);
  });
  it('lets a request or a waitlist spot be withdrawn at any time', () => {
    for (const status of ['requested', 'waitlisted'] as const)
      expect(
        customerMayCancel({ status }, occurrence, Date.parse('2026-12-01T17:59:00.000Z')),
      ).toBe(true);
  });
  it('says the cut-off in hours', () => {
    expect(pastCutoffMessage(1)).toBe(
      'Cancellations close 1 hour before the class; ask the organization.',
    );
    expect(pastCutoffMessage(24)).toBe(
      'Cancellations close 24 hours before the class; ask the organization.',
    );
  });
});

describe('who may change a booking to what', () => {
  it('starts every booking as a request', () => {
    for (const to of bookingStatuses) {
      expect(allowedChange('customer', null, to)).toBe(to === 'requested');
      expect(allowedChange('staff', null, to)).toBe(to === 'requested');
    }
  });
  it('never lets a customer set a verdict or attendance', () => {
    for (const from of bookingStatuses)
      for (const to of ['booked', 'waitlisted', 'refused', 'attended', 'no-show'] as const)
        if (from !== to) expect(allowedChange('customer', from, to)).toBe(false);
  });
  it('lets staff check in and undo it, but not out of a refusal', () => {
    expect(allowedChange('staff', 'booked', 'attended')).toBe(true);
    expect(allowedChange('staff', 'attended', 'booked')).toBe(true);
    expect(allowedChange('staff', 'refused', 'attended')).toBe(false);
    expect(allowedChange('customer', 'attended', 'cancelled')).toBe(false);
  });
});

describe('the waitlist order', () => {
  it('is whoever reached the server first, then the id', () => {
    const list = [
      { id: 'b', decidedAt: '2026-11-24T10:00:01.000Z' },
      { id: 'c', decidedAt: '2026-11-24T10:00:00.000Z' },
      { id: 'a', decidedAt: '2026-11-24T10:00:01.000Z' },
    ];
    expect([...list].sort(waitlistOrder).map((b) => b.id)).toEqual(['c', 'a', 'b']);
  });
});
