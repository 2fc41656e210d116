import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from './instant-column.ts';
import { replicatedStampedOnInsert } from './replicated-tables.ts';
import { organizations, users } from './tables.ts';
import type { AvailabilityException, WeeklyAvailability } from '../schedule/availability.ts';

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

/**
 * An appointment type (issue 16): what a customer books one-to-one with a member of staff — its
 * length, the buffer kept clear around it, what pays for it, and who gives it. Booking one makes
 * a class time of its own (kind 'appointment', one place) when the slot is free.
 */
export const appointmentTypes = pgTable(
  'appointment_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    durationMinutes: integer('duration_minutes').notNull(),
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    priceMinor: integer('price_minor'),
    currency: text('currency').notNull(),
    staffUserIds: uuid('staff_user_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    entitlingProductIds: uuid('entitling_product_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    punchCardGroupIds: uuid('punch_card_group_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    timeZone: text('time_zone').notNull(),
    createdAt: instant('created_at')
      .notNull()
      .default(sql`now()`),
    ...replicatedStampedOnInsert(),
  },
  (t) => [index('appointment_types_feed').on(t.orgId, t.txid, t.id)],
);

/**
 * A staff member's weekly hours for appointments, with the days that differ — one row per staff
 * member and organisation, replicated read-only so a customer's device finds free slots offline.
 */
export const staffAvailability = pgTable(
  'staff_availability',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    staffName: text('staff_name').notNull(),
    weekly: jsonb('weekly').$type<WeeklyAvailability>().notNull().default([]),
    exceptions: jsonb('exceptions').$type<AvailabilityException[]>().notNull().default([]),
    ...replicatedStampedOnInsert(),
  },
  (t) => [
    index('staff_availability_feed').on(t.orgId, t.txid, t.id),
    uniqueIndex('staff_availability_person').on(t.orgId, t.userId),
  ],
);

export const classOccurrences = pgTable(
  'class_occurrences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The series; null for an appointment (which names its type instead). */
    classId: uuid('class_id').references(() => scheduleClasses.id, { onDelete: 'cascade' }),
    appointmentTypeId: uuid('appointment_type_id').references(() => appointmentTypes.id, {
      onDelete: 'cascade',
    }),
    /** The day the series' rule gave this occurrence: its key within the series. */
    ruleDay: text('rule_day').notNull(),
    title: text('title').notNull(),
    kind: text('kind', { enum: ['class', 'event', 'appointment'] }).notNull(),
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
    // A staff member's busy times, read under their appointment lock.
    index('class_occurrences_coach').on(t.coachUserId, t.startsAt),
    check(
      'class_occurrences_origin',
      sql`(${t.classId} is null) <> (${t.appointmentTypeId} is null)`,
    ),
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

export const scheduleTables = {
  scheduleClasses,
  appointmentTypes,
  staffAvailability,
  classOccurrences,
  calendarFeeds,
};
