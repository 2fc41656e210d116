import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CardOnFile } from '../payments/purchase-docs.zod.ts';
import type { TotaledInvoice } from '../payments/totaling.ts';
import { replicatedStampedOnInsert } from './replicated-tables.ts';
import { organizations, users } from './tables.ts';

// Products, coupons and charges (issue 15, decision 0054): every amount is integer minor
// units; everything belongs to an organisation and is read by org_id (DESIGN.md Tenancy).

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const orgId = () =>
  uuid('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: ['recurring', 'one-time'] }).notNull(),
    schedule: text('schedule', {
      enum: ['week', 'bi-weekly', 'month', 'quarter', 'bi-yearly', 'year', 'one-time'],
    }).notNull(),
    priceMinor: integer('price_minor').notNull(),
    startupFeeMinor: integer('startup_fee_minor').notNull().default(0),
    state: text('state', { enum: ['available', 'requires-consultation', 'archived'] })
      .notNull()
      .default('available'),
    variablePricing: jsonb('variable_pricing')
      .$type<{ enabled: boolean; prices: Array<{ price: number }> }>()
      .notNull()
      .default({ enabled: false, prices: [] }),
    unifiedBillingConfig: jsonb('unified_billing_config')
      .$type<{ enabled: boolean; billingDayOfMonth: number }>()
      .notNull()
      .default({ enabled: false, billingDayOfMonth: 1 }),
    punchCardConfiguration: jsonb('punch_card_configuration')
      .$type<{ groups: Array<{ id: string; name: string; credits: number }> }>()
      .notNull()
      .default({ groups: [] }),
    /** The processor's product (spec §3 stripeProductId); set when it was created there. */
    processorProductId: text('processor_product_id'),
    createdAt: createdAt(),
    // Replicated to every member's device (collection `products`, decision 0058).
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('products_org').on(t.orgId),
    index('products_feed').on(t.orgId, t.txid, t.id),
    check('products_amounts', sql`${t.priceMinor} >= 0 and ${t.startupFeeMinor} >= 0`),
  ],
);

export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    name: text('name').notNull(),
    type: text('type', { enum: ['percentage', 'fixed', 'none'] }).notNull(),
    /** Percent (1–100) or minor units (fixed). */
    amount: integer('amount').notNull(),
    /** null: no limit. */
    numberOfRedemptions: integer('number_of_redemptions'),
    /** Redemptions taken, including those held by a charge in progress. */
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    appliesToProductIds: uuid('applies_to_product_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    durationType: text('duration_type', { enum: ['forever', 'once', 'repeating'] }).notNull(),
    durationInMonths: integer('duration_in_months'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('coupons_org').on(t.orgId),
    // The database itself never lets a coupon be redeemed more often than it may.
    check(
      'coupons_redemptions',
      sql`${t.timesRedeemed} >= 0 and (${t.numberOfRedemptions} is null or ${t.timesRedeemed} <= ${t.numberOfRedemptions})`,
    ),
  ],
);

/** A customer's card as the processor keeps it: never the number, only what identifies it. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor', { enum: ['sandbox', 'stripe'] }).notNull(),
    processorPaymentMethodId: text('processor_payment_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('payment_methods_org_user').on(t.orgId, t.userId)],
);

/**
 * A totaled invoice (spec §3) kept by the server between Continue and Run charge. Its status
 * moves open → charging → paid, or back to open with the failure; `attempt` names the
 * processor's idempotency key (`{id}:{attempt}`) and moves on only after a definite failure,
 * so a retry of an attempt whose outcome was never heard asks the processor the same question
 * and cannot charge twice (decision 0055).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    /** The product's name when the order was totaled: what the receipt and history show. */
    productName: text('product_name').notNull(),
    couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, {
      onDelete: 'set null',
    }),
    priceMinor: integer('price_minor').notNull(),
    /**
     * The price was agreed on a staff member's invitation below the product's (an imported
     * discount, decision 0073): kept so the charge's re-totaling holds it to that agreement.
     */
    priceAgreed: boolean('price_agreed').notNull().default(false),
    startDate: date('start_date', { mode: 'string' }),
    /**
     * The agreed last day of the subscription this sale starts (an invitation imported with an
     * end date, decision 0073): written to the subscription in the charge's transaction.
     */
    endsOn: date('ends_on', { mode: 'string' }),
    prorationMode: text('proration_mode', {
      enum: ['charge-prorated', 'delayed-billing'],
    }).notNull(),
    issuePunchCard: boolean('issue_punch_card').notNull().default(false),
    totals: jsonb('totals').$type<TotaledInvoice>().notNull(),
    totalMinor: integer('total_minor').notNull(),
    currency: text('currency').notNull().default('USD'),
    status: text('status', { enum: ['open', 'charging', 'paid', 'void'] })
      .notNull()
      .default('open'),
    attempt: integer('attempt').notNull().default(1),
    /** Whether this invoice holds one of its coupon's redemptions (taken when charging starts). */
    couponReserved: boolean('coupon_reserved').notNull().default(false),
    chargingSince: timestamp('charging_since', { withTimezone: true }),
    failureMessage: text('failure_message'),
    processorChargeId: text('processor_charge_id'),
    subscriptionId: uuid('subscription_id'),
    /**
     * The processor's own invoice, for a renewal the processor billed (a Stripe `in_…`): one row
     * per processor invoice, whatever delivers its webhook twice (decision 0057).
     */
    processorInvoiceId: text('processor_invoice_id'),
    /**
     * The billing date a renewal invoice of ours is for (the sandbox renews, decision 0060): one
     * invoice per subscription and period, whoever renews it — two workers, a retry, a crash.
     */
    periodStart: date('period_start', { mode: 'string' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    // Replicated once paid (collection `invoices`, decision 0058); an unpaid one is a tombstone.
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('invoices_org_customer').on(t.orgId, t.customerUserId),
    index('invoices_feed').on(t.orgId, t.txid, t.id),
    uniqueIndex('invoices_processor_invoice')
      .on(t.processorInvoiceId)
      .where(sql`${t.processorInvoiceId} is not null`),
    uniqueIndex('invoices_renewal_period')
      .on(t.subscriptionId, t.periodStart)
      .where(sql`${t.periodStart} is not null`),
    check(
      'invoices_amounts',
      sql`${t.totalMinor} >= 0 and ${t.priceMinor} >= 0 and ${t.attempt} >= 1`,
    ),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    /** The product's name when it was bought: what Purchase history shows. */
    productName: text('product_name').notNull(),
    couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    priceMinor: integer('price_minor').notNull(),
    /**
     * past-due: the renewal charge failed and is retried — by the processor (Stripe, decision
     * 0057) or by our renewal job (the sandbox, decision 0060).
     */
    status: text('status', {
      enum: ['scheduled', 'active', 'past-due', 'cancel-at-period-end', 'cancelled'],
    }).notNull(),
    startedOn: date('started_on', { mode: 'string' }).notNull(),
    nextBillingDate: date('next_billing_date', { mode: 'string' }),
    /**
     * The last day it runs, when it was agreed to end (a product assignment imported with an end
     * date, decision 0073): nothing bills on or after it, and the daily sweep ends it then.
     */
    endsOn: date('ends_on', { mode: 'string' }),
    /** Paid outside the platform (spec §3 start-customer-subscription-for-external-payment). */
    externalPayments: boolean('external_payments').notNull().default(false),
    /**
     * The card its renewals are charged to (issue 15 "the card on file", decision 0064): the one
     * it was bought with, until its customer replaces it.
     */
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, {
      onDelete: 'set null',
    }),
    /**
     * That card as its owner's devices show it (brand, last 4, expiry; never the number): kept on
     * the row because the replication engine reads one table, as product_name is (0058).
     */
    card: jsonb('card').$type<CardOnFile>(),
    firstInvoiceId: uuid('first_invoice_id'),
    /**
     * The processor's subscription that bills the renewals after our first charge (a Stripe
     * `sub_…`); its webhooks find this row, and through it the organisation (decision 0057).
     */
    processorSubscriptionId: text('processor_subscription_id'),
    /**
     * When the processor's latest event that set this row's status happened: the processor does
     * not deliver events in order, and an older one must not undo a newer one.
     */
    processorEventAt: timestamp('processor_event_at', { withTimezone: true }),
    /**
     * When the processor said yes to stopping it at its period's end for an agreed end (decision
     * 0073); null while it has not — the hourly sweep asks until it has.
     */
    processorStopAskedAt: timestamp('processor_stop_asked_at', { withTimezone: true }),
    /** When a declined renewal is tried again (past-due, the sandbox; decision 0060). */
    renewalRetryAt: timestamp('renewal_retry_at', { withTimezone: true }),
    createdAt: createdAt(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    // Replicated to the customer's family (collection `purchases`, decision 0058).
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('subscriptions_org_customer').on(t.orgId, t.customerUserId),
    index('subscriptions_feed').on(t.orgId, t.txid, t.id),
    uniqueIndex('subscriptions_processor_subscription')
      .on(t.processorSubscriptionId)
      .where(sql`${t.processorSubscriptionId} is not null`),
    // What the renewal job looks for: subscriptions not ended, by their next billing date.
    index('subscriptions_renewals_due')
      .on(t.nextBillingDate)
      .where(sql`${t.status} <> 'cancelled'`),
  ],
);

/** The customer at the processor (a Stripe `cus_…`) of one person in one organisation. */
export const processorCustomers = pgTable(
  'processor_customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor', { enum: ['stripe'] }).notNull(),
    processorCustomerId: text('processor_customer_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('processor_customers_person').on(t.orgId, t.userId, t.processor)],
);

/**
 * Every processor event (webhook) received, by the processor's event id: inserted in the same
 * transaction as the event's effect, ON CONFLICT DO NOTHING, so an event delivered twice — or
 * twice at once — has its effect once (decision 0057). Not tenant data: an event names no
 * organisation until our own rows are read.
 */
export const processorEvents = pgTable('processor_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** What it did: applied, or why it did nothing (unknown type, no subscription of ours…). */
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
});

/**
 * The sandbox processor's own book (the embedded default, labelled 'Sandbox' on screen): one
 * row per idempotency key, so asking twice answers the first outcome, as Stripe does.
 */
export const sandboxCharges = pgTable(
  'sandbox_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    idempotencyKey: text('idempotency_key').notNull(),
    processorPaymentMethodId: text('processor_payment_method_id').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    outcome: text('outcome', { enum: ['succeeded', 'declined', 'requires-action'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sandbox_charges_key').on(t.idempotencyKey)],
);

/**
 * A place paid for by card at booking (decision 0070): the customer pays online first (the
 * device's checkout names this row's id), then the device writes the booking request, and the
 * server's decision uses the payment — once. A payment no booking took (refused, full, never
 * sent) and one whose place was given up in time is refunded by the job queue.
 *
 * `charging` → `paid` (or `declined`, to be paid again under the next attempt) → `used` when a
 * booking took a place with it → `refund-due` → `refunded`.
 */
export const bookingPayments = pgTable(
  'booking_payments',
  {
    id: uuid('id').primaryKey(),
    orgId: orgId(),
    bookingId: uuid('booking_id').notNull(),
    /** Whose card paid (a guardian, for a child's place). */
    payerUserId: uuid('payer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Whose place it pays for. */
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The class time (for an appointment: the id the device named for it). */
    occurrenceId: text('occurrence_id').notNull(),
    /** The appointment type paid for; null for a class or event. */
    appointmentTypeId: uuid('appointment_type_id'),
    /** What the receipt says: the class and its time. */
    description: text('description').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull().default('USD'),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, {
      onDelete: 'set null',
    }),
    status: text('status', {
      enum: ['charging', 'paid', 'declined', 'used', 'refund-due', 'refunded', 'refund-refused'],
    }).notNull(),
    attempt: integer('attempt').notNull().default(1),
    chargingSince: timestamp('charging_since', { withTimezone: true }),
    failureMessage: text('failure_message'),
    processorChargeId: text('processor_charge_id'),
    processorRefundId: text('processor_refund_id'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    // Replicated to the payer once charged (collection `booking-payments`): the receipt, and
    // whether the money went back. One never charged is a tombstone.
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('booking_payments_feed').on(t.orgId, t.txid, t.id),
    // One payment in play per booking: a second checkout for the same place cannot charge too.
    uniqueIndex('booking_payments_live')
      .on(t.orgId, t.bookingId)
      .where(sql`${t.status} in ('charging', 'paid', 'declined', 'used')`),
    index('booking_payments_due').on(t.status, t.paidAt),
    index('booking_payments_booking').on(t.bookingId),
  ],
);

/**
 * The sandbox's refunds: one row per idempotency key, against one of its succeeded charges;
 * together never more than the charge took.
 */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgId(),
    idempotencyKey: text('idempotency_key').notNull(),
    chargeId: uuid('charge_id')
      .notNull()
      .references(() => sandboxCharges.id, { onDelete: 'cascade' }),
    amountMinor: integer('amount_minor').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sandbox_refunds_key').on(t.idempotencyKey),
    index('sandbox_refunds_charge').on(t.chargeId),
  ],
);

/** The sandbox's stored cards: what the test number said the card does. */
export const sandboxCards = pgTable('sandbox_cards', {
  id: text('id').primaryKey(),
  orgId: orgId(),
  behaviour: text('behaviour', {
    enum: ['succeeds', 'declined', 'insufficient-funds', 'requires-authentication'],
  }).notNull(),
  createdAt: createdAt(),
});

export const paymentTables = {
  products,
  coupons,
  paymentMethods,
  invoices,
  subscriptions,
  sandboxCharges,
  sandboxRefunds,
  bookingPayments,
  sandboxCards,
  processorCustomers,
  processorEvents,
};
