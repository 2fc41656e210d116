import { isActive } from '@platform/schema/bookings/booking.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import {
  appointmentSlots,
  type AppointmentTypeDoc,
  type AvailabilityDoc,
} from '@platform/schema/schedule/appointments.zod';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import { bookingRequest } from './schedule-view.ts';
import type { BusyRange } from '@platform/schema/schedule/availability';

/**
 * Appointments in My calendar (issue 16), from the replica alone: the free starts of a type with
 * each member of staff — their hours, minus the class times they lead and the appointments they
 * give with each one's buffer (other customers' too: those replicate as class times; another
 * organisation's, which the server also counts, are not known here), minus what this device asked for
 * and the server has not answered yet. The server checks the same slot with the same function
 * (appointments.zod.ts) when the request arrives; a slot someone else took first is refused
 * there, in words.
 */

/** What keeps a member of staff busy, as this device knows it. */
export function busyOf(
  staffUserId: string,
  occurrences: readonly OccurrenceDoc[],
  asked: readonly BookingDoc[],
  types: ReadonlyMap<string, Pick<AppointmentTypeDoc, 'durationMinutes' | 'bufferMinutes'>>,
): BusyRange[] {
  // An appointment keeps its own type's buffer clear too: two are kept apart by the larger of
  // their buffers (as the server's busyTimesOf).
  const bufferOf = (typeId: string | null) =>
    (typeId ? (types.get(typeId)?.bufferMinutes ?? 0) : 0) * 60_000;
  const held = occurrences
    .filter((o) => o.coachUserId === staffUserId && o.status !== 'cancelled')
    .map((o) => ({
      from: Date.parse(o.startsAt),
      to: Date.parse(o.endsAt),
      bufferMs: bufferOf(o.appointmentTypeId),
    }));
  const known = new Set(occurrences.map((o) => o.id));
  const waiting = asked.flatMap((booking) => {
    const appointment = booking.appointment;
    const type = appointment ? types.get(appointment.typeId) : undefined;
    if (!appointment || !type || appointment.staffUserId !== staffUserId) return [];
    // Answered already (its class time arrived), or given up: not counted twice or at all.
    if (known.has(booking.occurrenceId) || !isActive(booking.status)) return [];
    const from = Date.parse(appointment.startsAt);
    return [
      { from, to: from + type.durationMinutes * 60_000, bufferMs: type.bufferMinutes * 60_000 },
    ];
  });
  return [...held, ...waiting];
}

export type StaffSlots = { staffUserId: string; staffName: string; slots: Range[] };

/** Each staff member's free starts of a type in the window (those giving it, with hours). */
export function slotsOfType(input: {
  type: AppointmentTypeDoc;
  hours: readonly AvailabilityDoc[];
  occurrences: readonly OccurrenceDoc[];
  asked: readonly BookingDoc[];
  types: ReadonlyMap<string, AppointmentTypeDoc>;
  window: Range;
  now: number;
}): StaffSlots[] {
  const byStaff = new Map(input.hours.map((h) => [h.userId, h]));
  return input.type.staffUserIds.flatMap((staffUserId) => {
    const hours = byStaff.get(staffUserId);
    if (!hours) return [];
    return [
      {
        staffUserId,
        staffName: hours.staffName,
        slots: appointmentSlots({
          type: input.type,
          hours,
          busy: busyOf(staffUserId, input.occurrences, input.asked, input.types),
          window: input.window,
          notBefore: input.now,
        }),
      },
    ];
  });
}

/**
 * What My calendar shows for an appointment asked for before its class time has arrived on this
 * device (offline, or the server has not answered): the type's title and the chosen time.
 */
export function askedAppointmentTime(
  booking: BookingDoc,
  type: AppointmentTypeDoc | undefined,
  staffName: string | null,
): OccurrenceDoc | null {
  const appointment = booking.appointment;
  if (!appointment) return null;
  const startsAt = Date.parse(appointment.startsAt);
  const minutes = type?.durationMinutes ?? 60;
  return {
    id: booking.occurrenceId,
    orgId: booking.orgId,
    classId: null,
    appointmentTypeId: appointment.typeId,
    kind: 'appointment',
    title: type?.title ?? 'Appointment',
    location: type?.location ?? '',
    coachUserId: appointment.staffUserId,
    coachName: staffName,
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(startsAt + minutes * 60_000).toISOString(),
    capacity: 1,
    bookedCount: 0,
    waitlistCount: 0,
    // Nothing is held yet: the request may be withdrawn any time.
    cancelBy: new Date(startsAt).toISOString(),
    status: 'scheduled',
    detached: true,
    updatedAt: booking.updatedAt,
  };
}

/** A new appointment request as the device writes it: the device names its class time. */
export function appointmentRequest(input: {
  id: string;
  occurrenceId: string;
  orgId: string;
  personId: string;
  personName: string;
  typeId: string;
  staffUserId: string;
  startsAt: number;
  now: Date;
}): BookingDoc {
  return {
    ...bookingRequest({ ...input, joinWaitlist: false }),
    appointment: {
      typeId: input.typeId,
      staffUserId: input.staffUserId,
      startsAt: new Date(input.startsAt).toISOString(),
    },
  };
}
