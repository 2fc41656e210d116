import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { recurrenceSchema } from './recurrence.ts';

/**
 * The schedule (issue 16, decision 0066): a class or event is a series staff describe once
 * (`classes`), and every occurrence of it is a row of its own (`occurrences`) — made when the
 * series is saved, as the series' rule is bounded (until a day, or at most MAX_OCCURRENCES
 * times). Bookings name an occurrence; its capacity and counts live on the occurrence, so the
 * server's check of a booking is one row lock, and a device reads a month from an index.
 * Both collections replicate read-only to every member of the organisation: the calendar opens
 * offline, for customers and staff alike.
 */

export const classKinds = ['class', 'event'] as const;
export type ClassKind = (typeof classKinds)[number];

export const scheduleMessages = {
  titleRequired: 'Title is required.',
  titleTooLong: 'Title must be at most 120 characters.',
  descriptionTooLong: 'Description must be at most 2000 characters.',
  locationTooLong: 'Location must be at most 200 characters.',
  capacity: 'Capacity must be a whole number from 1 to 1000.',
  duration: 'Duration must be 5 minutes to 24 hours.',
  start: 'Enter the first start as a date and time.',
  price: 'Enter a price of 0 or more.',
  cutoff: 'The cut-off must be 0 to 168 hours.',
  classNotFound: 'There is no such class.',
  occurrenceNotFound: 'There is no such class time.',
  coachUnknown: 'The coach must be a member of this organization’s staff.',
  productsUnknown: 'A class can only be included in products this organization offers.',
  groupsUnknown: 'A class can only take credits of punch cards this organization offers.',
  capacityBelowBooked: 'Capacity cannot be below the number of people already booked.',
  occurrencePast: 'A class time that has ended cannot be changed.',
  seriesMoved:
    'Saved. Class times that already have bookings keep their time; change them one by one.',
} as const;

export const MAX_CAPACITY = 1000;

const wallStart = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/, scheduleMessages.start);

/** What staff fill in for a class or event (create, or edit the whole series). */
export const classInputSchema = z.object({
  kind: z.enum(classKinds),
  title: z
    .string()
    .trim()
    .min(1, scheduleMessages.titleRequired)
    .max(120, scheduleMessages.titleTooLong),
  description: z.string().trim().max(2000, scheduleMessages.descriptionTooLong).default(''),
  location: z.string().trim().max(200, scheduleMessages.locationTooLong).default(''),
  coachUserId: documentIdSchema.nullable().default(null),
  capacity: z
    .number(scheduleMessages.capacity)
    .int(scheduleMessages.capacity)
    .min(1, scheduleMessages.capacity)
    .max(MAX_CAPACITY, scheduleMessages.capacity),
  /** Paid at booking when nothing the customer holds entitles them; null: no price. */
  priceMinor: z
    .number(scheduleMessages.price)
    .int(scheduleMessages.price)
    .min(0, scheduleMessages.price)
    .max(10_000_000, scheduleMessages.price)
    .nullable()
    .default(null),
  /** Subscriptions to these products entitle a booking. */
  entitlingProductIds: z.array(documentIdSchema).max(50).default([]),
  /** One credit of any of these punch-card groups pays for a booking. */
  punchCardGroupIds: z.array(documentIdSchema).max(50).default([]),
  /** The first occurrence's start on the organisation's wall clock, 'YYYY-MM-DDTHH:MM'. */
  firstStart: wallStart,
  durationMinutes: z
    .number(scheduleMessages.duration)
    .int(scheduleMessages.duration)
    .min(5, scheduleMessages.duration)
    .max(24 * 60, scheduleMessages.duration),
  /** null: once. */
  recurrence: recurrenceSchema.nullable().default(null),
});
export type ClassInput = z.infer<typeof classInputSchema>;
export type ClassInputDraft = z.input<typeof classInputSchema>;

/** Editing one occurrence: its own time, place, coach, capacity — or cancelling it. */
export const occurrenceEditSchema = z.object({
  start: wallStart.optional(),
  durationMinutes: classInputSchema.shape.durationMinutes.optional(),
  location: classInputSchema.shape.location.optional(),
  coachUserId: documentIdSchema.nullable().optional(),
  capacity: classInputSchema.shape.capacity.optional(),
  cancelled: z.boolean().optional(),
});
export type OccurrenceEdit = z.infer<typeof occurrenceEditSchema>;

export const classIdParamsSchema = z.object({ classId: documentIdSchema });
export const occurrenceIdParamsSchema = z.object({ occurrenceId: documentIdSchema });

/** The organisation's booking rules (Schedule settings). */
export const bookingSettingsSchema = z.object({
  /** Customers may cancel until this many hours before the start (and get a credit back). */
  cancelCutoffHours: z
    .number(scheduleMessages.cutoff)
    .int(scheduleMessages.cutoff)
    .min(0, scheduleMessages.cutoff)
    .max(168, scheduleMessages.cutoff),
});
export type BookingSettings = z.infer<typeof bookingSettingsSchema>;
export const DEFAULT_CANCEL_CUTOFF_HOURS = 2;

/** A class or event series, replicated read-only (collection `classes`). */
export const classDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  kind: z.enum(classKinds),
  title: z.string().max(120),
  description: z.string().max(2000),
  location: z.string().max(200),
  coachUserId: z.uuid().nullable(),
  /** The coach's name as customers see it (they do not replicate the team). */
  coachName: z.string().max(300).nullable(),
  capacity: z.number().int().min(1).max(MAX_CAPACITY),
  priceMinor: z.number().int().min(0).max(10_000_000).nullable(),
  currency: z.string().max(3),
  entitlingProductIds: z.array(z.uuid()).max(50),
  punchCardGroupIds: z.array(z.uuid()).max(50),
  firstStart: z.string().max(16),
  durationMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  /** The RRULE line (decision 0065); null for a one-off. */
  rrule: z.string().max(300).nullable(),
  timeZone: z.string().max(100),
  updatedAt: isoTimeSchema,
});
export type ClassDoc = z.infer<typeof classDocSchema>;

export const occurrenceStatuses = ['scheduled', 'cancelled'] as const;
/** A class time is a class's or event's, or a booked appointment's (one place). */
export const occurrenceKinds = [...classKinds, 'appointment'] as const;

/**
 * One time a class or event happens — or an appointment booked — replicated read-only
 * (collection `occurrences`). An appointment names its type instead of a series and carries no
 * customer: who booked it is in the bookings, which only the family and staff replicate.
 */
export const occurrenceDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  classId: z.uuid().nullable(),
  appointmentTypeId: z.uuid().nullable(),
  kind: z.enum(occurrenceKinds),
  title: z.string().max(120),
  location: z.string().max(200),
  coachUserId: z.uuid().nullable(),
  coachName: z.string().max(300).nullable(),
  startsAt: isoTimeSchema,
  endsAt: isoTimeSchema,
  capacity: z.number().int().min(1).max(MAX_CAPACITY),
  /** Places taken (booked, attended, no-show) and people waiting: kept by the server. */
  bookedCount: z.number().int().min(0).max(MAX_CAPACITY),
  waitlistCount: z.number().int().min(0).max(1_000_000),
  /** Customers may cancel (with a credit back) until this instant. */
  cancelBy: isoTimeSchema,
  status: z.enum(occurrenceStatuses),
  /** Changed on its own: a change to the series leaves it as it is. */
  detached: z.boolean(),
  updatedAt: isoTimeSchema,
});
export type OccurrenceDoc = z.infer<typeof occurrenceDocSchema>;

/** What the server answers when a class is saved. */
export const classSavedResponseSchema = z.object({
  class: classDocSchema,
  occurrences: z.number().int(),
  /** Occurrences that kept their time because people are booked on them. */
  kept: z.number().int(),
  message: z.string().nullable(),
});
export type ClassSavedResponse = z.infer<typeof classSavedResponseSchema>;

/** GET /api/schedule/coaches: who may lead a class (the organisation's staff). */
export const coachesResponseSchema = z.object({
  coaches: z.array(z.object({ userId: z.uuid(), name: z.string() })),
});
export type CoachesResponse = z.infer<typeof coachesResponseSchema>;

/** The customer's private calendar feed: whether one is live, and its URL right after making it. */
export const calendarFeedResponseSchema = z.object({
  active: z.boolean(),
  createdAt: isoTimeSchema.nullable(),
  /** Shown once, when the link is made: only its hash is kept. */
  url: z.string().nullable(),
});
export type CalendarFeedResponse = z.infer<typeof calendarFeedResponseSchema>;
