import { describe, expect, it } from 'vitest';
import type { CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import type { TotalChargeResponse } from '@platform/schema/payments/charge.zod';
import {
  chargeFlowReducer,
  continueBlocker,
  initialChargeFlow,
  punchCardDisabled,
  type ChargeFlowState,
} from './charge-flow.ts';

const product = (over: Partial<CatalogueProduct> = {}): CatalogueProduct => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Unlimited',
  description: '',
  type: 'recurring',
  schedule: 'month',
  priceMinor: 9_900,
  startupFeeMinor: 0,
  state: 'available',
  variablePricing: { enabled: false, prices: [] },
  unifiedBillingConfig: { enabled: false, billingDayOfMonth: 1 },
  punchCardConfiguration: { groups: [] },
  stripeProductId: 'prod_sandbox_1',
  ...over,
});

const totals: TotalChargeResponse = {
  invoiceId: '00000000-0000-4000-8000-0000000000aa',
  totals: {
    total: 9_900,
    subtotal: 9_900,
    couponDiscount: 0,
    recurringFinalAmount: 9_900,
    nextBillingDate: '2026-12-24',
    isProrated: false,
    prorationDescription: null,
    lineItems: [],
  },
};

const run = (state: ChargeFlowState, ...actions: Parameters<typeof chargeFlowReducer>[1][]) =>
  actions.reduce(chargeFlowReducer, state);

describe('the charge flow (spec §4)', () => {
  const ready = run(
    initialChargeFlow,
    { type: 'choose-product', productId: product().id },
    { type: 'choose-payment-method', paymentMethodId: 'pm-1' },
  );

  it('Continue moves to order-summary with the totals; Back returns to product-selection', () => {
    const summary = run(ready, { type: 'totaled', invoice: totals });
    expect(summary.currentStep).toBe('order-summary');
    expect(summary.totaledInvoice).toBe(totals);
    expect(run(summary, { type: 'back' }).currentStep).toBe('product-selection');
  });

  it('a valid result completes; an invalid one stays on order-summary with the error', () => {
    const summary = run(ready, { type: 'totaled', invoice: totals });
    const done = run(summary, {
      type: 'ran',
      result: {
        valid: true,
        invoiceId: totals.invoiceId,
        totals: totals.totals,
        subscriptionId: null,
        recurring: true,
      },
      invalidMessage: 'x',
    });
    expect(done.currentStep).toBe('completed');
    const refused = run(summary, {
      type: 'ran',
      result: { valid: false, invoiceId: totals.invoiceId, message: 'Your card was declined.' },
      invalidMessage: 'There was an error processing payment.',
    });
    expect(refused.currentStep).toBe('order-summary');
    expect(refused.errorMessage).toBe('There was an error processing payment.');
  });

  it('closing resets the flow', () => {
    const summary = run(ready, { type: 'totaled', invoice: totals });
    expect(run(summary, { type: 'reset' })).toEqual(initialChargeFlow);
  });

  it('a delayed start drops the start-up fee; Immediately brings it back', () => {
    const delayed = run(ready, { type: 'set-start-date', startDate: '2026-12-01' });
    expect(delayed.startupFee).toBe(false);
    expect(run(delayed, { type: 'set-start-date', startDate: '' }).startupFee).toBe(true);
  });

  it('changing an answer forgets totals made from the old ones', () => {
    const summary = run(ready, { type: 'totaled', invoice: totals }, { type: 'back' });
    expect(run(summary, { type: 'set-coupon', couponId: 'c' }).totaledInvoice).toBeNull();
  });

  it('Continue needs a product and a payment method, a price where asked, a start in the window', () => {
    const today = '2026-11-24';
    expect(continueBlocker(initialChargeFlow, null, today, null)).toBe(
      'Choose a product and a payment method.',
    );
    expect(continueBlocker(ready, product(), today, null)).toBeNull();
    expect(
      continueBlocker(ready, product({ variablePricing: { enabled: true, prices: [] } }), today, 0),
    ).toBe('A price must be set for this product');
    const sameDay = run(ready, { type: 'set-start-date', startDate: today });
    expect(continueBlocker(sameDay, product(), today, null)).toBe(
      'The start date must be tomorrow or later.',
    );
    const tooLate = run(ready, { type: 'set-start-date', startDate: '2027-01-01' });
    expect(continueBlocker(tooLate, product(), today, null)).toBe(
      'The start date must be within 30 days from today.',
    );
  });

  it('the punch-card toggle is disabled for recurring products', () => {
    expect(punchCardDisabled(product())).toBe(true);
    expect(punchCardDisabled(product({ type: 'one-time', schedule: 'one-time' }))).toBe(false);
  });
});
