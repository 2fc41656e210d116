import { describe, expect, it } from 'vitest';
import {
  couponInputSchema,
  couponMessages,
  newDiscountDefaults,
  productInputSchema,
  productMessages,
} from './products.zod.ts';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}) => (result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []));

describe('products (spec §3)', () => {
  const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };

  it('fills the defaults: no fee, available, no variable price, billing day 1, no punch cards', () => {
    expect(productInputSchema.parse(monthly)).toEqual({
      ...monthly,
      description: '',
      startupFeeMinor: 0,
      state: 'available',
      variablePricing: { enabled: false, prices: [] },
      unifiedBillingConfig: { enabled: false, billingDayOfMonth: 1 },
      punchCardConfiguration: { groups: [] },
    });
  });

  it('clamps the billing day to 1–28', () => {
    const parsed = productInputSchema.parse({
      ...monthly,
      unifiedBillingConfig: { enabled: true, billingDayOfMonth: 31 },
    });
    expect(parsed.unifiedBillingConfig.billingDayOfMonth).toBe(28);
  });

  it('refuses inconsistent products with a reason each', () => {
    expect(messagesOf(productInputSchema.safeParse({ ...monthly, schedule: 'one-time' }))).toEqual([
      productMessages.scheduleMismatch,
    ]);
    expect(
      messagesOf(
        productInputSchema.safeParse({
          ...monthly,
          schedule: 'week',
          unifiedBillingConfig: { enabled: true, billingDayOfMonth: 1 },
        }),
      ),
    ).toEqual([productMessages.unifiedBillingNeedsMonths]);
    expect(
      messagesOf(
        productInputSchema.safeParse({
          ...monthly,
          punchCardConfiguration: {
            groups: [
              { id: '0b6f4f2e-5a3a-4c55-9d1e-3f1d2c3b4a51', name: '10 classes', credits: 10 },
            ],
          },
        }),
      ),
    ).toEqual([productMessages.punchCardsOneTimeOnly]);
    expect(messagesOf(productInputSchema.safeParse({ ...monthly, priceMinor: 9.5 }))).toEqual([
      productMessages.priceInvalid,
    ]);
    expect(messagesOf(productInputSchema.safeParse({ ...monthly, name: '  ' }))).toEqual([
      productMessages.nameRequired,
    ]);
  });
});

describe('coupons (spec §3, §9)', () => {
  it('has the new-discount defaults of spec §9', () => {
    expect(newDiscountDefaults({ type: 'recurring' })).toMatchObject({
      type: 'percentage',
      amount: 10,
      numberOfRedemptions: 1,
      duration: { durationType: 'forever' },
    });
    expect(newDiscountDefaults({ type: 'one-time' }).duration.durationType).toBe('once');
  });

  it('checks the amount by type and the months of a repeating coupon', () => {
    const base = { ...newDiscountDefaults(null), name: 'Welcome' };
    expect(couponInputSchema.safeParse(base).success).toBe(true);
    expect(messagesOf(couponInputSchema.safeParse({ ...base, amount: 101 }))).toEqual([
      couponMessages.percentInvalid,
    ]);
    expect(messagesOf(couponInputSchema.safeParse({ ...base, type: 'fixed', amount: 0 }))).toEqual([
      couponMessages.fixedInvalid,
    ]);
    expect(
      messagesOf(
        couponInputSchema.safeParse({
          ...base,
          duration: { durationType: 'repeating', durationInMonths: null },
        }),
      ),
    ).toEqual([couponMessages.monthsRequired]);
  });
});
