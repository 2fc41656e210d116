import { date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './tables.ts';
import { coupons, invoices, products, subscriptions } from './payment-tables.ts';

/**
 * An invitation to a product (spec §2 Invite-to-product, §3 Invite request and action types;
 * issue 15): staff offer a customer a product at a price, from a start date, with a coupon.
 * `create-customer-subscription-invite` waits (pending) until the customer pays from the
 * email's link or it expires; the other two actions are carried out when sent and kept as a
 * record. The invoice the customer's payment charges is kept here, so paying twice from the
 * same invitation charges one invoice once (decision 0055).
 */
export const productInvites = pgTable(
  'product_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    /** The agreed price (variable pricing, requires-consultation); null = the product's. */
    priceMinor: integer('price_minor'),
    startDate: date('start_date', { mode: 'string' }),
    /** The agreed last day of the subscription it starts (imported, decision 0073). */
    endDate: date('end_date', { mode: 'string' }),
    action: text('action', {
      enum: [
        'start-stripe-subscription',
        'create-customer-subscription-invite',
        'start-customer-subscription-for-external-payment',
      ],
    }).notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'cancelled'] })
      .notNull()
      .default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('product_invites_org_status').on(t.orgId, t.status),
    index('product_invites_customer').on(t.customerUserId),
  ],
);

export const inviteTables = { productInvites };
