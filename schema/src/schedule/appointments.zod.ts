import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';
import {
  availabilityExceptionSchema,
  freeSlots,
  type BusyRange,
  weeklyAvailabilitySchema,
  type AvailabilityException,
  type WeeklyAvailability,
} from './availability.ts';
import type { Range } from '../time-tracking/org-calendar.ts';
import { weekdayKeys } from './recurrence.ts';

/**
 * Appointments (issue 16): an appointment type says what a customer books one-to-one — how long,
 * the buffer kept clear around it, what pays for it, and which staff give it; each staff member's
 * weekly hours (with the days that differ) say when. Both replicate read-only to every member of
 * the organisation (collections `appointment-types`, `availability`), so a customer's device
 * finds free slots offline; the server checks the slot again, under the staff member's lock,
 * when the request arrives — and makes the appointment a class time of its own.
 */

export const appointmentMessages = {
  titleRequired: 'Title is required.',
  titleTooLong: 'Title must be at most 120 characters.',
  duration: 'Duration must be 5 minutes to 8 hours.',
  buffer: 'The buffer must be 0 to 240 minutes.',
  price: 'Enter a price of 0 or more.',
  staffRequired: 'Choose at least one member of staff who gives this appointment.',
  staffUnknown: 'Appointments can only be given by this organization’s staff.',
  typeNotFound: 'There is no such appointment type.',
  tooManyHours: 'At most 20 opening hours a day.',
  tooManyExceptions: 'At most 366 days that differ.',
  duplicateException: 'Each day can differ only once.',
  // The server's verdicts on a request (in the booking's `refusal`).
  slotTaken: 'This time is no longer free. Pick another time.',
  typeGone: 'This appointment type is no longer offered.',
  staffGone: 'This person no longer gives this appointment.',
  tooFarAhead: 'Appointments can be booked up to a year ahead.',
  newTimeId: 'An appointment is asked for under a new lower-case UUID of its own.',
} as const;

/** How far ahead an appointment may be asked for. */
export const APPOINTMENT_HORIZON_MS = 366 * 86_400_000;

export const MAX_APPOINTMENT_MINUTES = 8 * 60;

/** What staff fill in for an appointment type. */
export const appointmentTypeInputSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, appointmentMessages.titleRequired)
    .max(120, appointmentMessages.titleTooLong),
  description: z.string().trim().max(2000).default(''),
  location: z.string().trim().max(200).default(''),
  durationMinutes: z
    .number(appointmentMessages.duration)
    .int(appointmentMessages.duration)
    .min(5, appointmentMessages.duration)
    .max(MAX_APPOINTMENT_MINUTES, appointmentMessages.duration),
  bufferMinutes: z
    .number(appointmentMessages.buffer)
    .int(appointmentMessages.buffer)
    .min(0, appointmentMessages.buffer)
    .max(240, appointmentMessages.buffer)
    .default(0),
  priceMinor: z
    .number(appointmentMessages.price)
    .int(appointmentMessages.price)
    .min(0, appointmentMessages.price)
    .max(10_000_000, appointmentMessages.price)
    .nullable()
    .default(null),
  staffUserIds: z
    .array(documentIdSchema)
    .min(1, appointmentMessages.staffRequired)
    .max(100, appointmentMessages.staffRequired),
  entitlingProductIds: z.array(documentIdSchema).max(50).default([]),
  punchCardGroupIds: z.array(documentIdSchema).max(50).default([]),
});
export type AppointmentTypeInput = z.infer<typeof appointmentTypeInputSchema>;
export type AppointmentTypeDraft = z.input<typeof appointmentTypeInputSchema>;

export const appointmentTypeIdParamsSchema = z.object({ typeId: documentIdSchema });
export const staffIdParamsSchema = z.object({ userId: documentIdSchema });

/** An appointment type, replicated read-only (collection `appointment-types`). */
export const appointmentTypeDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  title: z.string().max(120),
  description: z.string().max(2000),
  location: z.string().max(200),
  durationMinutes: z.number().int().min(1).max(MAX_APPOINTMENT_MINUTES),
  bufferMinutes: z.number().int().min(0).max(240),
  priceMinor: z.number().int().min(0).max(10_000_000).nullable(),
  currency: z.string().max(3),
  staffUserIds: z.array(z.uuid()).max(100),
  entitlingProductIds: z.array(z.uuid()).max(50),
  punchCardGroupIds: z.array(z.uuid()).max(50),
  timeZone: z.string().max(100),
  updatedAt: isoTimeSchema,
});
export type AppointmentTypeDoc = z.infer<typeof appointmentTypeDocSchema>;

const uniqueDays = (exceptions: readonly AvailabilityException[]) =>
  new Set(exceptions.map((e) => e.day)).size === exceptions.length;

/** A staff member's hours as staff set them (PUT /api/schedule/availability/:userId). */
const MAX_HOURS_A_DAY = 20;
const fewHoursEachDay = (weekly: WeeklyAvailability) =>
  weekdayKeys.every((day) => weekly.filter((h) => h.weekday === day).length <= MAX_HOURS_A_DAY);

export const availabilityInputSchema = z.object({
  weekly: weeklyAvailabilitySchema
    .max(7 * MAX_HOURS_A_DAY, appointmentMessages.tooManyHours)
    .refine(fewHoursEachDay, appointmentMessages.tooManyHours),
  exceptions: z
    .array(availabilityExceptionSchema)
    .max(366, appointmentMessages.tooManyExceptions)
    .refine(
      (days) => days.every((d) => d.hours.length <= MAX_HOURS_A_DAY),
      appointmentMessages.tooManyHours,
    )
    .refine(uniqueDays, appointmentMessages.duplicateException)
    .default([]),
});
export type AvailabilityInput = z.infer<typeof availabilityInputSchema>;

/** A staff member's hours, replicated read-only (collection `availability`). */
export const availabilityDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  userId: z.uuid(),
  staffName: z.string().max(300),
  weekly: z
    .array(
      z.object({
        weekday: z.enum(weekdayKeys),
        from: z.string().max(5),
        to: z.string().max(5),
      }),
    )
    .max(7 * 20),
  exceptions: z
    .array(
      z.object({
        day: z.string().max(10),
        hours: z.array(z.object({ from: z.string().max(5), to: z.string().max(5) })).max(20),
      }),
    )
    .max(366),
  updatedAt: isoTimeSchema,
});
export type AvailabilityDoc = z.infer<typeof availabilityDocSchema>;

/** What the server answers when staff read who may give appointments and their hours. */
export const staffHoursResponseSchema = z.object({
  staff: z.array(
    z.object({
      userId: z.uuid(),
      name: z.string(),
      weekly: weeklyAvailabilitySchema,
      exceptions: z.array(availabilityExceptionSchema),
    }),
  ),
});
export type StaffHoursResponse = z.infer<typeof staffHoursResponseSchema>;

/** A time a staff member is taken: a class they lead or an appointment they give. */
export type BusyTime = Range & { staffUserId: string | null };

/**
 * The free starts of an appointment type with one member of staff in `window` — the same
 * function answers a customer's device (from the replica) and the server's check of a request.
 */
export function appointmentSlots(input: {
  type: Pick<AppointmentTypeDoc, 'durationMinutes' | 'bufferMinutes' | 'timeZone'>;
  hours: { weekly: WeeklyAvailability; exceptions: readonly AvailabilityException[] } | null;
  busy: readonly BusyRange[];
  window: Range;
  notBefore: number;
}): Range[] {
  if (!input.hours) return [];
  return freeSlots({
    availability: input.hours.weekly,
    exceptions: input.hours.exceptions,
    busy: input.busy,
    durationMinutes: input.type.durationMinutes,
    bufferMinutes: input.type.bufferMinutes,
    timeZone: input.type.timeZone,
    window: input.window,
    notBefore: input.notBefore,
  });
}

/** Whether `startsAt` is one of the free starts (the server's check of a request). */
export function slotIsFree(
  input: Omit<Parameters<typeof appointmentSlots>[0], 'window'> & {
    startsAt: number;
  },
): boolean {
  const { startsAt, ...rest } = input;
  const end = startsAt + input.type.durationMinutes * 60_000;
  return appointmentSlots({ ...rest, window: { from: startsAt, to: end } }).some(
    (slot) => slot.from === startsAt,
  );
}
