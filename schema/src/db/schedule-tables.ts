import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from './instant-column.ts';
import { replicatedStampedOnInsert } from './replicated-tables.ts';
import { organizations, users } from './tables.ts';

/**
 * The schedule (issue 16, decision 0066): a class or event series, and one row per occurrence.
 * Both replicate read-only to every member of the organisation (collections `classes`,
 * `occurrences`); staff change them through /api/schedule routes (schedule.service.ts).
 */
export const scheduleClasses = pgTable(
  'schedule_classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['class', 'event'] }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    coachUserId: uuid('coach_user_id').references(() => users.id, { onDelete: 'set null' }),
    coachName: text('coach_name'),
    capacity: integer('capacity').notNull(),
    priceMinor: integer('price_minor'),
    currency: text('currency').notNull(),
    entitlingProductIds: uuid('entitling_product_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    punchCardGroupIds: uuid('punch_card_group_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** 'YYYY-MM-DDTHH:MM' on the organisation's wall clock. */
    firstStart: text('first_start').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    rrule: text('rrule'),
    timeZone: text('time_zone').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: instant('created_at')
      .notNull()
      .default(sql`now()`),
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('schedule_classes_feed').on(t.orgId, t.txid, t.id),
    check('schedule_classes_capacity', sql`${t.capacity} between 1 and 1000`),
  ],
);

export const classOccurrences = pgTable(
  'class_occurrences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    classId: uuid('class_id')
      .notNull()
      .references(() => scheduleClasses.id, { onDelete: 'cascade' }),
    /** The day the series' rule gave this occurrence: its key within the series. */
    ruleDay: text('rule_day').notNull(),
    title: text('title').notNull(),
    kind: text('kind', { enum: ['class', 'event'] }).notNull(),
    location: text('location').notNull().default(''),
    coachUserId: uuid('coach_user_id').references(() => users.id, { onDelete: 'set null' }),
    coachName: text('coach_name'),
    startsAt: instant('starts_at').notNull(),
    endsAt: instant('ends_at').notNull(),
    capacity: integer('capacity').notNull(),
    /** Places taken and people waiting, kept by the booking write under this row's lock. */
    bookedCount: integer('booked_count').notNull().default(0),
    waitlistCount: integer('waitlist_count').notNull().default(0),
    cancelBy: instant('cancel_by').notNull(),
    status: text('status', { enum: ['scheduled', 'cancelled'] })
      .notNull()
      .default('scheduled'),
    detached: boolean('detached').notNull().default(false),
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('class_occurrences_feed').on(t.orgId, t.txid, t.id),
    index('class_occurrences_when').on(t.orgId, t.startsAt),
    uniqueIndex('class_occurrences_rule_day').on(t.classId, t.ruleDay),
    check('class_occurrences_counts', sql`${t.bookedCount} >= 0 and ${t.waitlistCount} >= 0`),
    // The guarantee: never more places taken than the class has.
    check('class_occurrences_capacity', sql`${t.bookedCount} <= ${t.capacity}`),
  ],
);

/**
 * A customer's private calendar feed (issue 16): a secret URL their calendar app polls for the
 * family's bookings in one organisation. Only the token's SHA-256 is stored; making a new link
 * or revoking removes the row, so the old URL answers 404 at once.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: instant('created_at')
      .notNull()
      .default(sql`now()`),
  },
  (t) => [uniqueIndex('calendar_feeds_person').on(t.orgId, t.userId)],
);

export const scheduleTables = { scheduleClasses, classOccurrences, calendarFeeds };
