import type { Schedule } from '@platform/schema/payments/billing-calendar';
import type { PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';

/** How often a product is charged, as the Shop and Purchase history say it. */
export const everyLabels: Record<Schedule, string> = {
  week: 'a week',
  'bi-weekly': 'every two weeks',
  month: 'a month',
  quarter: 'a quarter',
  'bi-yearly': 'every six months',
  year: 'a year',
  'one-time': 'once',
};

export const purchaseStatusLabels: Record<PurchaseDoc['status'], string> = {
  scheduled: 'Starts soon',
  active: 'Active',
  'past-due': 'The last payment failed — it is being tried again',
  'cancel-at-period-end': 'Cancelled — ends at the end of the period',
  cancelled: 'Ended',
};

export const shopTexts = {
  sandbox:
    'Sandbox: payments here are practice. No card is charged and only test cards work (4242 4242 4242 4242).',
  offlineBuy: 'You are offline. Buying needs a connection; what you bought is shown below.',
  forChild: 'Buying for a child? Switch to their account first (Switch accounts), then buy.',
  offlineCard: 'You are offline. Replacing the card needs a connection.',
  cardNotChanged: 'Your card on file was not changed.',
  pastDue:
    'A payment failed and is being tried again: replace the card and the next attempt uses it.',
} as const;
