import { z } from 'zod';

/**
 * Every kind of background work (decision 0014): its payload and how it is retried. A payload
 * holds ids and addresses, never a secret: pg-boss keeps finished jobs for days, so a link or
 * a body lives in the feature's own table, where it is removed once used (decision 0015).
 */
export const jobDefinitions = {
  /** One row of email_outbox to hand to the mail transport. */
  'email-delivery': {
    payload: z.object({ emailId: z.uuid() }),
    // ~30 s, 1, 2, 4, 8 min (each up to twice that, jittered): an SMTP server down for a
    // quarter of an hour loses nothing.
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 120,
  },
  /** Forgot password: the lookup, the token and the email happen here, not in the request. */
  'forgot-password': {
    payload: z.object({ email: z.string().min(3).max(320) }),
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireInSeconds: 60,
  },
  /** A push notice for every live device of these people (the Notifier port). */
  'push-notice': {
    payload: z.object({
      orgId: z.uuid().nullable(),
      userIds: z.array(z.uuid()).min(1).max(1000),
      title: z.string().min(1),
      body: z.string(),
      url: z.string().min(1),
    }),
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 120,
  },
  /**
   * A renewal the processor could not charge: the customer is told by email how to fix the card
   * (decisions 0057, 0060), or — after the sandbox's last retry — that the subscription ended.
   */
  'renewal-failed-notice': {
    payload: z.object({
      orgId: z.uuid(),
      subscriptionId: z.uuid(),
      /** The invoice that was declined: Stripe's `in_…`, or ours for a sandbox renewal. */
      processorInvoiceId: z.string().min(1),
      ended: z.boolean().optional(),
    }),
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 60,
  },
  /** A paid invoice's receipt: an email and a push notice to the buyer (issue 15). */
  'payment-receipt': {
    payload: z.object({ orgId: z.uuid(), invoiceId: z.uuid() }),
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 60,
  },
  /**
   * The sandbox's renewals (decision 0060): every five minutes, one subscription-renewal job for
   * each subscription it bills that is due today in its organisation's calendar.
   */
  'renewals-due': {
    payload: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    cron: '*/5 * * * *',
  },
  /** One subscription's renewal: charged once per billing date, whatever runs it twice. */
  'subscription-renewal': {
    payload: z.object({ orgId: z.uuid(), subscriptionId: z.uuid() }),
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 120,
  },
  /**
   * Tells people about their bookings (issue 16) by email and push, as their notification
   * preferences allow: a place from the waitlist, a class cancelled or moved, a booking
   * refused after it was made offline, a reminder before the class.
   */
  'booking-notice': {
    payload: z.object({
      orgId: z.uuid(),
      kind: z.enum(['promoted', 'class-cancelled', 'class-moved', 'refused', 'reminder']),
      bookingIds: z.array(z.uuid()).min(1).max(1000),
    }),
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 120,
  },
  /** Every quarter of an hour: one reminder for each place in a class starting within a day. */
  'booking-reminders': {
    payload: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    cron: '*/15 * * * *',
  },
  /** A payment made at booking that no place kept, given back once (decision 0070). */
  'booking-refund': {
    payload: z.object({ paymentId: z.uuid() }),
    // ~1, 2, 4, 8, 16 min; after that the hourly sweep asks again.
    retryLimit: 5,
    retryDelaySeconds: 60,
    expireInSeconds: 120,
  },
  /** The payer's receipt for a place paid at booking, or word that its money went back. */
  'booking-payment-notice': {
    payload: z.object({
      orgId: z.uuid(),
      paymentId: z.uuid(),
      kind: z.enum(['paid', 'refunded']),
    }),
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 60,
  },
  /** Hourly: payments at booking unused for a day owed back, and each one owed asked again. */
  'booking-refunds-due': {
    payload: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    cron: '23 * * * *',
  },
  /**
   * Hourly: subscriptions paid outside the platform end on their agreed day, and those a processor
   * bills stop at the period's end before it (decision 0073).
   */
  'subscription-ends': {
    payload: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    cron: '41 * * * *',
  },
  /**
   * Card subscriptions started from a product assignments file (decision 0073): the processor's
   * subscription of each, made once (its key is the subscription's), after the import is kept.
   */
  'card-subscription-start': {
    payload: z.object({ orgId: z.uuid(), subscriptionIds: z.array(z.uuid()).min(1).max(1000) }),
    // ~1, 2, 4, 8, 16 min; after that the hourly sweep asks again.
    retryLimit: 5,
    retryDelaySeconds: 60,
    expireInSeconds: 900,
  },
  /** Hourly: card subscriptions from files whose processor's subscription was not made. */
  'card-subscriptions-pending': {
    payload: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    cron: '47 * * * *',
  },
  /**
   * A CSV import (issue 17, decision 0071): every row checked, then all written in one
   * transaction or none. A retry after a crash finds nothing written and starts over; one
   * finding the import done does nothing.
   */
  'csv-import': {
    payload: z.object({ importId: z.uuid() }),
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 1800,
  },
  /**
   * 'Export all data' (issue 17, decision 0072): the archive, streamed into its chunks. A retry
   * after a crash starts from nothing.
   */
  'org-export': {
    payload: z.object({ exportId: z.uuid() }),
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 1800,
  },
  /** Deletes what would otherwise grow for ever (decision 0016). */
  prune: {
    payload: z.object({}),
    retryLimit: 2,
    retryDelaySeconds: 300,
    expireInSeconds: 900,
    /** Hourly, at a minute nothing else is likely to pick. */
    cron: '7 * * * *',
  },
} as const satisfies Record<string, JobDefinition>;

export type JobDefinition = {
  payload: z.ZodType<object>;
  /** Attempts after the first; then the job is failed for good and its dead letter logged. */
  retryLimit: number;
  /** Backoff base: the n-th retry waits this × 2^(n-1) to twice that (pg-boss, jittered). */
  retryDelaySeconds: number;
  /** A running job not done by then counts as failed (and is retried). */
  expireInSeconds: number;
  cron?: string;
};

export type JobName = keyof typeof jobDefinitions;
export type JobPayload<N extends JobName> = z.infer<(typeof jobDefinitions)[N]['payload']>;
export const jobNames = Object.keys(jobDefinitions) as JobName[];

/** Where pg-boss puts a job that failed for good; its worker logs and cleans up. */
export const deadLetterOf = (name: JobName) => `${name}-failed`;
