import { describe, expect, it } from 'vitest';
import type { CreditDoc } from '@platform/schema/payments/credit-doc.zod';
import type { PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';
import {
  bookingState,
  holdingsOf,
  mayCancel,
  paymentHint,
  placesLabel,
  upcoming,
} from './schedule-view.ts';

const occurrence = (over: Record<string, unknown> = {}) => ({
  id: 'o1',
  orgId: 'org',
  classId: 'c1',
  appointmentTypeId: null,
  kind: 'class' as const,
  title: 'Spin',
  location: '',
  coachUserId: null,
  coachName: null,
  startsAt: '2026-12-01T18:00:00.000Z',
  endsAt: '2026-12-01T19:00:00.000Z',
  capacity: 10,
  bookedCount: 0,
  waitlistCount: 0,
  cancelBy: '2026-12-01T16:00:00.000Z',
  status: 'scheduled' as const,
  detached: false,
  updatedAt: '2026-11-24T00:00:00.000Z',
  ...over,
});

describe('places', () => {
  it('counts places left and says when a class is full', () => {
    expect(placesLabel(occurrence({ bookedCount: 9 }))).toEqual({
      text: '1 place left',
      full: false,
    });
    expect(placesLabel(occurrence({ bookedCount: 3 }))).toEqual({
      text: '7 places left',
      full: false,
    });
    expect(placesLabel(occurrence({ bookedCount: 10 }))).toEqual({ text: 'Full', full: true });
    expect(placesLabel(occurrence({ bookedCount: 10, waitlistCount: 2 }))).toEqual({
      text: 'Full — 2 waiting',
      full: true,
    });
  });
  it('lists class times ahead, not cancelled ones nor those started', () => {
    const list = [
      occurrence({ id: 'late', startsAt: '2026-12-02T18:00:00.000Z' }),
      occurrence({ id: 'gone', status: 'cancelled' }),
      occurrence({ id: 'past', startsAt: '2026-11-01T18:00:00.000Z' }),
      occurrence({ id: 'soon' }),
    ];
    expect(
      upcoming(list, Date.parse('2026-11-24T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z')).map(
        (o) => o.id,
      ),
    ).toEqual(['soon', 'late']);
  });
});

describe('what a booking costs, from the device', () => {
  const purchase = (over: Partial<PurchaseDoc>): PurchaseDoc =>
    ({
      id: 'p',
      orgId: 'org',
      customerUserId: 'kid',
      productId: 'unlimited',
      productName: 'Unlimited',
      priceMinor: 1,
      status: 'active',
      startedOn: '2026-01-01',
      nextBillingDate: null,
      cancelledAt: null,
      card: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
      ...over,
    }) as PurchaseDoc;
  const credit = (delta: number): CreditDoc => ({
    id: crypto.randomUUID(),
    orgId: 'org',
    customerUserId: 'kid',
    productId: 'pack',
    productName: 'Pack',
    groupId: 'g1',
    groupName: 'Classes',
    delta,
    reason: delta > 0 ? 'purchase' : 'booking',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const terms = {
    priceMinor: 2000,
    entitlingProductIds: ['unlimited'],
    punchCardGroupIds: ['g1'],
    currency: 'USD',
  };

  it('reads the person’s own subscriptions and credits only', () => {
    const holdings = holdingsOf(
      'kid',
      [purchase({}), purchase({ customerUserId: 'parent', productId: 'other' })],
      [credit(5), credit(-1)],
      '2026-11-24',
    );
    expect([...holdings.activeProductIds]).toEqual(['unlimited']);
    expect(holdings.creditsByGroup.get('g1')).toBe(4);
    expect(paymentHint(terms, holdings, new Map()).text).toBe('Included in your membership');
  });
  it('names the punch card a credit comes from, and the price when nothing pays', () => {
    const withCredits = holdingsOf(
      'kid',
      [purchase({ status: 'cancelled' })],
      [credit(2)],
      '2026-11-24',
    );
    expect(paymentHint(terms, withCredits, new Map([['g1', 'Classes']]))).toEqual({
      text: 'Uses 1 credit of Classes (2 left)',
      bookable: true,
      payMinor: null,
    });
    // Nothing held pays and it has a price: paid by card when booking (decision 0070).
    const nothing = holdingsOf('kid', [purchase({ startedOn: '2026-12-01' })], [], '2026-11-24');
    expect(paymentHint(terms, nothing, new Map())).toEqual({
      text: '$20.00, paid by card when you book',
      bookable: true,
      payMinor: 2_000,
    });
    // Without a price, nothing can pay: the Shop.
    expect(paymentHint({ ...terms, priceMinor: null }, nothing, new Map()).bookable).toBe(false);
  });
});

describe('booking states', () => {
  it('shows a request as pending, saying whether it waits for the network', () => {
    expect(bookingState({ status: 'requested' }, false).label).toBe(
      'Pending — sent when you are back online',
    );
    expect(bookingState({ status: 'requested' }, true).label).toBe(
      'Pending — waiting for the organization’s answer',
    );
    expect(bookingState({ status: 'refused' }, true)).toEqual({
      label: 'Not booked',
      tone: 'refused',
    });
  });
  it('lets a place be cancelled only until the cut-off', () => {
    const booking = { status: 'booked' } as Parameters<typeof mayCancel>[0];
    expect(mayCancel(booking, occurrence(), Date.parse('2026-12-01T15:59:00.000Z'))).toBe(true);
    expect(mayCancel(booking, occurrence(), Date.parse('2026-12-01T16:01:00.000Z'))).toBe(false);
    expect(
      mayCancel(
        { ...booking, status: 'waitlisted' },
        occurrence(),
        Date.parse('2026-12-01T17:00:00.000Z'),
      ),
    ).toBe(true);
  });
});
