import { z } from 'zod';
import {
  addDays,
  dayKeyOf,
  instantOfWallTime,
  isDayKey,
  type DayKey,
  type Range,
} from '../time-tracking/org-calendar.ts';
import { weekdayKeys, type WeekdayKey } from './recurrence.ts';

/**
 * Appointment slots (issue 16: "each staff member's weekly availability with exceptions;
 * customers pick a free slot"): the free starts of an appointment type's length in a staff
 * member's hours, minus what they are already booked for, with the type's buffer kept clear
 * on both sides. Hours are wall-clock times in the organisation's zone, so 9:00–17:00 stays
 * 9:00–17:00 on the days clocks change. The same function answers the device (from the
 * replica) and the server (which checks a booking against it).
 */

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM.');
const hours = z
  .object({ from: hhmm, to: hhmm })
  .refine((h) => h.from < h.to, 'The end must be after the start.');

export const weeklyAvailabilitySchema = z.array(
  hours.and(z.object({ weekday: z.enum(weekdayKeys) })),
);
export type WeeklyAvailability = z.infer<typeof weeklyAvailabilitySchema>;

/** A day off, or other hours that day (replacing the week's). */
export const availabilityExceptionSchema = z.object({
  day: z.string().refine(isDayKey, 'Enter a date.'),
  hours: z.array(hours),
});
export type AvailabilityException = z.infer<typeof availabilityExceptionSchema>;

/** A time taken, and the buffer it keeps clear around itself (ms). */
export type BusyRange = Range & { bufferMs?: number };

export type SlotRequest = {
  availability: WeeklyAvailability;
  exceptions?: readonly AvailabilityException[];
  /**
   * What the staff member is already booked for (other appointments, classes they coach), each
   * with the buffer its own type keeps clear (ms; none for a class).
   */
  busy: readonly BusyRange[];
  durationMinutes: number;
  /** Kept clear before and after the appointment. */
  bufferMinutes: number;
  /** Starts offered every this many minutes from the start of the hours (default 15). */
  stepMinutes?: number;
  timeZone: string;
  window: Range;
  /** No start earlier than this (now, plus any notice the organisation asks for). */
  notBefore: number;
};

const weekdayOf = (day: DayKey): WeekdayKey => {
  const sundayFirst = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return weekdayKeys[(sundayFirst + 6) % 7]!;
};

const wallMs = (day: DayKey, time: string) => Date.parse(`${day}T${time}:00.000Z`);

/** The most slots one request returns (a month of 15-minute starts is far below it). */
export const MAX_SLOTS = 2000;

/** Free appointment starts in `window`, in order, each `durationMinutes` long. */
export function freeSlots(request: SlotRequest): Range[] {
  const step = Math.max(5, request.stepMinutes ?? 15) * 60_000;
  const duration = request.durationMinutes * 60_000;
  const buffer = request.bufferMinutes * 60_000;
  if (duration <= 0 || request.window.to <= request.window.from) return [];
  const exceptions = new Map((request.exceptions ?? []).map((e) => [e.day, e.hours]));
  const busy = [...request.busy].sort((a, b) => a.from - b.from);
  // Two appointments are kept apart by the larger of their buffers.
  const clear = (from: number, to: number) =>
    !busy.some((b) => {
      const apart = Math.max(buffer, b.bufferMs ?? 0);
      return b.from < to + apart && b.to > from - apart;
    });

  const slots: Range[] = [];
  // Every organisation day touching the window (a day either side for far-off zones).
  const last = dayKeyOf(request.window.to, request.timeZone);
  for (
    let day = addDays(dayKeyOf(request.window.from, request.timeZone), -1);
    day <= addDays(last, 1);
    day = addDays(day, 1)
  ) {
    const dayHours =
      exceptions.get(day) ?? request.availability.filter((h) => h.weekday === weekdayOf(day));
    for (const h of dayHours) {
      const opens = instantOfWallTime(wallMs(day, h.from), request.timeZone);
      const closes = instantOfWallTime(wallMs(day, h.to), request.timeZone);
      for (let start = opens; start + duration <= closes; start += step) {
        const end = start + duration;
        if (start < request.notBefore) continue;
        if (start < request.window.from || end > request.window.to) continue;
        if (!clear(start, end)) continue;
        slots.push({ from: start, to: end });
        if (slots.length >= MAX_SLOTS) return slots;
      }
    }
  }
  return slots.sort((a, b) => a.from - b.from);
}
