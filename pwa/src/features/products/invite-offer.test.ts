import { describe, expect, it } from 'vitest';
import type { CatalogueCoupon, CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { packageInviteMessages } from '@platform/schema/payments/package-invite.zod';
import {
  canDelayStart,
  chooseOfferProduct,
  couponsFor,
  emptyOffer,
  inviteStanding,
  offerBlocker,
  offerRequest,
  type InviteOffer,
} from './invite-offer.ts';

const today = '2026-11-24';
const rosterId = '00000000-0000-4000-8000-0000000000b1';

const product = (over: Partial<CatalogueProduct> = {}): CatalogueProduct => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Unlimited',
  description: '',
  type: 'recurring',
  schedule: 'month',
  priceMinor: 12_900,
  startupFeeMinor: 2_500,
  state: 'available',
  variablePricing: { enabled: false, prices: [] },
  unifiedBillingConfig: { enabled: false, billingDayOfMonth: 1 },
  punchCardConfiguration: { groups: [] },
  stripeProductId: 'prod_sandbox_1',
  ...over,
});
const offer = (over: Partial<InviteOffer> = {}): InviteOffer => ({
  ...chooseOfferProduct(product().id),
  ...over,
});

describe('offerBlocker (spec §5: the create button waits for valid answers)', () => {
  it('lets "No product" through: the dialog only adds the customer', () => {
    expect(offerBlocker(emptyOffer, null, today)).toBeNull();
  });

  it('accepts a product that starts on purchase', () => {
    expect(offerBlocker(offer(), product(), today)).toBeNull();
  });

  it('refuses a product the processor does not manage, with the spec’s words', () => {
    expect(offerBlocker(offer(), product({ stripeProductId: null }), today)).toBe(
      'Invites can only be sent for products managed via Stripe',
    );
  });

  it.each([
    ['variable pricing', { variablePricing: { enabled: true, prices: [] } }],
    ['requires-consultation', { state: 'requires-consultation' as const }],
  ])('asks a price above zero for %s', (_, over) => {
    const p = product(over);
    for (const price of ['', '0', 'abc', '0.00']) {
      expect(offerBlocker(offer({ price }), p, today)).toBe('A price must be set for this product');
    }
    expect(offerBlocker(offer({ price: '49.50' }), p, today)).toBeNull();
    expect(packageInviteMessages.priceRequired).toBe('A price must be set for this product');
  });

  it('keeps a delayed start inside the schedule’s window, from tomorrow', () => {
    const p = product();
    const at = (startDate: string) => offerBlocker(offer({ start: 'date', startDate }), p, today);
    expect(at('')).toBe(chargeFlowMessages.invalidDate);
    expect(at(today)).toBe(chargeFlowMessages.startTooEarly);
    expect(at('2026-11-25')).toBeNull();
    expect(at('2026-12-24')).toBeNull(); // month: 30 days ahead
    expect(at('2026-12-25')).toBe(chargeFlowMessages.startTooLate(30));
  });

  it('does not let a one-time product start later', () => {
    const p = product({ type: 'one-time', schedule: 'one-time' });
    expect(canDelayStart(p, today)).toBe(false);
    expect(canDelayStart(product(), today)).toBe(true);
    expect(offerBlocker(offer({ start: 'date', startDate: '2026-11-26' }), p, today)).toBe(
      chargeFlowMessages.oneTimeStartsNow,
    );
  });
});

describe('offerRequest (spec §3 Invite request)', () => {
  it('sends the start date only for a delayed start, the price only where one is agreed', () => {
    expect(offerRequest(offer({ price: '10' }), product(), rosterId)).toEqual({
      action: 'send-package-invite',
      rosterId,
      productId: product().id,
      priceMinor: null,
      startDate: null,
      couponId: null,
    });
    const variable = product({ variablePricing: { enabled: true, prices: [] } });
    const couponId = '00000000-0000-4000-8000-0000000000c2';
    expect(
      offerRequest(
        offer({ price: '49.50', start: 'date', startDate: '2026-11-27', couponId }),
        variable,
        rosterId,
      ),
    ).toMatchObject({ priceMinor: 4_950, startDate: '2026-11-27', couponId });
  });

  it('forgets the old answers when another product is chosen', () => {
    expect(chooseOfferProduct('x')).toEqual({ ...emptyOffer, productId: 'x' });
  });
});

describe('couponsFor', () => {
  const coupon = (id: string, appliesToProductIds: string[]): CatalogueCoupon => ({
    id,
    name: id,
    type: 'percentage',
    amount: 10,
    numberOfRedemptions: null,
    timesRedeemed: 0,
    appliesToProductIds,
    duration: { durationType: 'forever', durationInMonths: null },
  });
  it('offers coupons for every product and those naming the chosen one', () => {
    const all = [coupon('any', []), coupon('mine', [product().id]), coupon('other', ['z'])];
    expect(couponsFor(all, product()).map((c) => c.id)).toEqual(['any', 'mine']);
    expect(couponsFor(all, null)).toEqual([]);
  });
});

describe('inviteStanding', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  it('reads a pending invitation past its expiry as expired', () => {
    expect(inviteStanding({ status: 'pending', expiresAt: '2026-11-24T11:59:59Z' }, now)).toBe(
      'expired',
    );
    expect(inviteStanding({ status: 'pending', expiresAt: '2026-12-08T12:00:00Z' }, now)).toBe(
      'open',
    );
    expect(inviteStanding({ status: 'cancelled', expiresAt: '2026-12-08T12:00:00Z' }, now)).toBe(
      'cancelled',
    );
    expect(inviteStanding({ status: 'accepted', expiresAt: '2026-11-01T00:00:00Z' }, now)).toBe(
      'accepted',
    );
  });
});
