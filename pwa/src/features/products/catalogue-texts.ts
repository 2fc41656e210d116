import type { Schedule } from '@platform/schema/payments/billing-calendar';
import type { SubscriptionStatus } from '@platform/schema/payments/subscriptions-overview.zod';
import type {
  CouponDuration,
  CouponType,
  ProductState,
} from '@platform/schema/payments/products.zod';

export const scheduleLabels: Record<Schedule, string> = {
  week: 'Every week',
  'bi-weekly': 'Every two weeks',
  month: 'Every month',
  quarter: 'Every quarter',
  'bi-yearly': 'Every six months',
  year: 'Every year',
  'one-time': 'Once',
};

export const stateLabels: Record<ProductState, string> = {
  available: 'Available',
  'requires-consultation': 'Requires consultation',
  archived: 'Archived',
};

export const couponTypeLabels: Record<CouponType, string> = {
  percentage: 'Percentage',
  fixed: 'Fixed amount',
  none: 'No discount',
};

export const durationLabels: Record<CouponDuration, string> = {
  forever: 'Forever',
  once: 'Once',
  repeating: 'For some months',
};

export const catalogueTexts = {
  productSaved: 'The product has been saved.',
  productArchived: (name: string) => `${name} is no longer offered.`,
  couponCreated: 'The coupon has been created.',
  couponArchived: (name: string) => `The coupon ${name} has been removed.`,
  emptyProducts: 'No products yet. Create your first membership, class pack or session.',
  emptyCoupons: 'No coupons yet.',
  sandbox:
    'Sandbox: payments here are practice. No card is charged and only test cards work (4242 4242 4242 4242).',
  noProcessor:
    'A new product is created at the payment processor first, so none can be created for now. Products offered before can still be changed, archived and recorded as paid outside the platform.',
} as const;

/** The owner's Subscriptions overview: a subscription's standing in a word or three. */
export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  'past-due': 'Past due',
  active: 'Active',
  scheduled: 'Starts later',
  'cancel-at-period-end': 'Cancelling at period end',
  cancelled: 'Ended',
};

export const processorTexts = {
  sandbox: 'Practice payments: no money moves, and only test cards work.',
  stripe: 'Cards are charged for real, and Stripe bills the renewals.',
} as const;
