import type { coupons } from '@platform/schema/db';
import type { CouponTerms } from '@platform/schema/payments/products.zod';

/** A coupon row as totaling reads it: the purchase's (charge.service) and each renewal's. */
export function couponTermsOf(coupon: typeof coupons.$inferSelect | null): CouponTerms | null {
  if (!coupon) return null;
  return {
    type: coupon.type,
    amount: coupon.amount,
    appliesToProductIds: coupon.appliesToProductIds,
    duration: { durationType: coupon.durationType, durationInMonths: coupon.durationInMonths },
  };
}
