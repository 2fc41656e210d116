import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from './instant-column.ts';
import { organizations, users } from './tables.ts';

/**
 * The change position of a replicated row: the id of the transaction that last wrote it
 * (`pg_current_xact_id()`, set by a trigger on every insert and update — see the migration
 * `0001_replication`). Pulls hand out only positions below the oldest transaction still in
 * flight, so a row that commits late can never fall behind a checkpoint already handed out.
 * Read back as a decimal string.
 */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/** The columns every replicated table carries. */
export const replicated = () => ({
  // instant(), not timestamp(): these times travel in documents and must read right in any
  // year (decision 0040).
  updatedAt: instant('updated_at', { precision: 3 }).notNull(),
  deleted: boolean('deleted').notNull().default(false),
  txid: xid8('txid')
    .notNull()
    .default(sql`pg_current_xact_id()`),
});

/**
 * The same, with updated_at defaulting to now() on insert: for tables that became replicated
 * after they were inserted in many places (the payment tables, decision 0058). Every update
 * still sets updated_at itself.
 */
export const replicatedStampedOnInsert = () => ({
  ...replicated(),
  updatedAt: instant('updated_at', { precision: 3 })
    .notNull()
    .default(sql`now()`),
});

export const rosterItems = pgTable(
  'roster_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * spec §6: added 'with external payments' — the person pays outside the platform and is a
     * record where staff keep notes and metrics. Server-only: not part of the replicated item.
     */
    externalPayments: boolean('external_payments').notNull().default(false),
    /**
     * Added by staff and not yet accepted by the person (an invitation to an address that had an
     * account, or an account staff made that nobody has claimed yet). Server-only, like
     * externalPayments; staff see it in the CRM (decision 0035).
     */
    invitationPending: boolean('invitation_pending').notNull().default(false),
    createdAt: instant('created_at')
      .notNull()
      .default(sql`now()`),
    /**
     * What CRM search reads (issue 7, decision 0012): names, email and phone digits, lower-cased.
     * A trigram index (migration 0004, hand-written) serves substring and typo matches.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))`,
    ),
    ...replicated(),
  },
  (t) => [
    uniqueIndex('roster_items_org_user').on(t.orgId, t.userId),
    index('roster_items_feed').on(t.orgId, t.txid, t.id),
    // CRM paging without a search: keyset on (sort key, id).
    index('roster_items_org_last_name').on(t.orgId, sql`lower(${t.lastName})`, t.id),
    index('roster_items_org_first_name').on(t.orgId, sql`lower(${t.firstName})`, t.id),
    index('roster_items_org_email').on(t.orgId, sql`coalesce(${t.email}, '')`, t.id),
    index('roster_items_org_created').on(t.orgId, t.createdAt, t.id),
  ],
);

export const timeEntries = pgTable(
  'time_entries',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startTime: instant('start_time', { precision: 3 }).notNull(),
    endTime: instant('end_time', { precision: 3 }),
    breakIntervals: jsonb('break_intervals')
      .$type<Array<{ startTime: string; endTime: string | null }>>()
      .notNull()
      .default([]),
    ...replicated(),
  },
  (t) => [
    index('time_entries_feed').on(t.orgId, t.txid, t.id),
    index('time_entries_person').on(t.orgId, t.userId, t.startTime),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person's name when the booking was decided (rosters and the kiosk show it). */
    customerName: text('customer_name').notNull().default(''),
    occurrenceId: text('occurrence_id').notNull(),
    status: text('status', {
      enum: ['requested', 'booked', 'waitlisted', 'refused', 'cancelled', 'attended', 'no-show'],
    }).notNull(),
    /** An appointment asked for (issue 16): its type, staff member and start. */
    appointment: jsonb('appointment').$type<{
      typeId: string;
      staffUserId: string;
      startsAt: string;
    } | null>(),
    joinWaitlist: boolean('join_waitlist').notNull().default(false),
    paidWith: text('paid_with', { enum: ['free', 'subscription', 'credit', 'card', 'desk'] }),
    /** The punch-card group a credit was taken from (given back on a timely cancellation). */
    creditGroupId: uuid('credit_group_id'),
    refusal: text('refusal'),
    requestedAt: instant('requested_at', { precision: 3 }),
    decidedAt: instant('decided_at', { precision: 3 }),
    checkedInAt: instant('checked_in_at', { precision: 3 }),
    /** When the reminder before the class was queued (once per booking; server-only). */
    remindedAt: instant('reminded_at', { precision: 3 }),
    ...replicated(),
  },
  (t) => [
    index('bookings_feed').on(t.orgId, t.txid, t.id),
    index('bookings_customer').on(t.customerUserId),
    index('bookings_occurrence').on(t.occurrenceId, t.status),
  ],
);

/**
 * What a customer's app shows of its organisation (name, colours, logo), replicated to every
 * member's device so the branded app opens offline. One row per organisation (id = org id),
 * created with the organisation by a trigger; staff change it through the branding settings.
 */
export const orgBranding = pgTable(
  'org_branding',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    appName: text('app_name').notNull(),
    shortName: text('short_name').notNull(),
    themeColor: text('theme_color').notNull(),
    backgroundColor: text('background_color').notNull(),
    /** The org_logos version; null while the organisation has no logo. */
    logoVersion: text('logo_version'),
    ...replicated(),
  },
  (t) => [index('org_branding_feed').on(t.orgId, t.txid, t.id)],
);

/**
 * Staff notes on a customer, replicated to staff devices so the front desk writes them offline
 * too (decision 0013). Written once, never changed: the id comes from the device.
 */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    /** When it was written — on the device, which may be well before it reached the server. */
    createdAt: instant('created_at', { precision: 3 })
      .notNull()
      .default(sql`now()`),
    ...replicated(),
  },
  (t) => [
    index('customer_notes_person').on(t.orgId, t.userId, t.createdAt),
    index('customer_notes_feed').on(t.orgId, t.txid, t.id),
  ],
);
