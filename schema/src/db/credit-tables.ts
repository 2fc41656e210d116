import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './tables.ts';
import { invoices, products } from './payment-tables.ts';
import { replicatedStampedOnInsert } from './replicated-tables.ts';

/**
 * Punch-card credits (spec §3 Product punchCardConfiguration.groups, §5 "punch card issuance
 * applies only to non-recurring products with punch card groups"; decision 0062): a ledger, one
 * row per movement — credits issued by a paid invoice, imported, adjusted, or used by a booking.
 * A person's balance in a group is the sum of its rows; nothing is ever updated in place, so
 * two bookings racing for the last credit are settled by a lock on that balance, not by a
 * counter one of them overwrites (credits.service.ts).
 *
 * Replicated read-only to the customer's family and to staff who sell (collection `credits`):
 * the balance reads from the device, also offline.
 */
export const punchCardCredits = pgTable(
  'punch_card_credits',
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
    /** The product's name when the credits were issued: what the customer's history shows. */
    productName: text('product_name').notNull(),
    /** The punch-card group (its id in the product's punchCardConfiguration) and its name. */
    groupId: uuid('group_id').notNull(),
    groupName: text('group_name').notNull(),
    /** Positive: credits given; negative: credits used or taken back. Never zero. */
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: ['purchase', 'import', 'adjustment', 'booking'] }).notNull(),
    /** The paid invoice that issued these (reason purchase): once per invoice and group. */
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'restrict' }),
    /** What used them (a booking's id) or why they were adjusted. */
    reference: text('reference'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('punch_card_credits_balance').on(t.orgId, t.customerUserId, t.groupId),
    index('punch_card_credits_feed').on(t.orgId, t.txid, t.id),
    uniqueIndex('punch_card_credits_invoice_group')
      .on(t.invoiceId, t.groupId)
      .where(sql`${t.invoiceId} is not null`),
    check('punch_card_credits_delta', sql`${t.delta} <> 0 and abs(${t.delta}) <= 100000`),
  ],
);

export const creditTables = { punchCardCredits };
