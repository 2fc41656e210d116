import { addDays, daysBetween, type Schedule } from './billing-calendar.ts';
import { isDayKey, type DayKey } from '../time-tracking/org-calendar.ts';

/**
 * spec §5 Delayed start date / §9 start-date windows: how many days ahead a subscription may
 * start, by schedule (quarter = ceil(365/4), bi-yearly = ceil(365/2)); a one-time product
 * starts on purchase. The earliest start is tomorrow.
 */
export const startDateWindowDays: Record<Schedule, number> = {
  week: 6,
  'bi-weekly': 13,
  month: 30,
  quarter: 92,
  'bi-yearly': 183,
  year: 365,
  'one-time': 0,
};

export const chargeFlowMessages = {
  invalidDate: 'Invalid date format',
  startTooEarly: 'The start date must be tomorrow or later.',
  startTooLate: (days: number) => `The start date must be within ${days} days from today.`,
  oneTimeStartsNow: 'A one-time product starts on purchase.',
  // spec §8
  chargeInvalid: 'There was an error processing payment.',
  chargeFailed: 'There was an error processing payment. Please try again later.',
  noProcessor: 'Payment processing not available',
  subscriptionCreated: 'Subscription created successfully!',
  paymentProcessed: 'Payment processed successfully!',
} as const;

/** The latest day a product of `schedule` may start on, counted from `today`; null when it cannot be delayed. */
export function latestStartDate(schedule: Schedule, today: DayKey): DayKey | null {
  const window = startDateWindowDays[schedule];
  return window === 0 ? null : addDays(today, window);
}

/**
 * Why `startDate` cannot be a delayed start of a product of `schedule` (spec §5), or null when
 * it can. Empty means "Immediately on purchase" and is always allowed.
 */
export function startDateRefusal(
  startDate: string | null,
  schedule: Schedule,
  today: DayKey,
): string | null {
  if (startDate === null || startDate === '') return null;
  if (!isDayKey(startDate)) return chargeFlowMessages.invalidDate;
  const window = startDateWindowDays[schedule];
  if (window === 0) return chargeFlowMessages.oneTimeStartsNow;
  const ahead = daysBetween(today, startDate);
  if (ahead < 1) return chargeFlowMessages.startTooEarly;
  if (ahead > window) return chargeFlowMessages.startTooLate(window);
  return null;
}

/** spec §5: "A one-time start-up fee cannot be charged when a delayed start is set." */
export function chargesStartupFee(startupFeeMinor: number, startDate: string | null): boolean {
  return startupFeeMinor > 0 && (startDate === null || startDate === '');
}

/** spec §5 Charge flow: Continue needs a product and a payment method. */
export function canContinue(state: {
  selectedProductId: string | null;
  paymentMethodId: string | null;
}): boolean {
  return Boolean(state.selectedProductId) && Boolean(state.paymentMethodId);
}

/**
 * spec §5: the punch-card credits toggle is disabled for recurring products; issuing a punch
 * card applies only to non-recurring products that have punch-card groups.
 */
export function punchCardToggle(product: {
  type: 'recurring' | 'one-time';
  punchCardConfiguration: { groups: readonly unknown[] };
}): { disabled: boolean; issues: (requested: boolean) => boolean } {
  const possible = product.type !== 'recurring' && product.punchCardConfiguration.groups.length > 0;
  return { disabled: product.type === 'recurring', issues: (requested) => requested && possible };
}

export const prorationModes = ['charge-prorated', 'delayed-billing'] as const;
export type ProrationMode = (typeof prorationModes)[number];
/** spec §9: charge-prorated is the default. */
export const DEFAULT_PRORATION_MODE: ProrationMode = 'charge-prorated';
