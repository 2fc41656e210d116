import {
  appointmentMessages,
  type AppointmentTypeDoc,
  type AppointmentTypeInput,
  type AvailabilityDoc,
  type AvailabilityInput,
  type StaffHoursResponse,
} from '@platform/schema/schedule/appointments.zod';
import { cancelByOf } from '@platform/schema/bookings/booking.rules';
import { APPOINTMENT_HORIZON_MS, slotIsFree } from '@platform/schema/schedule/appointments.zod';
import {
  DEFAULT_CANCEL_CUTOFF_HOURS,
  scheduleMessages,
} from '@platform/schema/schedule/schedule.zod';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { Db, Tx } from '../db/open-database.ts';
import { NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import * as repo from './appointments.repository.ts';
import {
  insertOccurrences,
  orgScheduleSettings,
  type NewOccurrenceRow,
  productsAmong,
  punchCardGroupIdsOf,
  staffNameOf,
  staffOf,
} from './schedule.repository.ts';
import type { ScheduleActor } from './schedule.service.ts';

/**
 * Appointment types and staff hours (issue 16), for staff with manage-schedule. Both replicate
 * read-only to every member's device; a booked appointment is decided in the booking write
 * (bookings.service.ts), which checks the slot again against what is saved here.
 */

export function appointmentTypeToDoc(row: repo.AppointmentTypeRow): WireDoc<AppointmentTypeDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    title: row.title,
    description: row.description,
    location: row.location,
    durationMinutes: row.durationMinutes,
    bufferMinutes: row.bufferMinutes,
    priceMinor: row.priceMinor,
    currency: row.currency,
    staffUserIds: row.staffUserIds,
    entitlingProductIds: row.entitlingProductIds,
    punchCardGroupIds: row.punchCardGroupIds,
    timeZone: row.timeZone,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

export function availabilityToDoc(row: repo.AvailabilityRow): WireDoc<AvailabilityDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    userId: row.userId,
    staffName: row.staffName,
    weekly: row.weekly,
    exceptions: row.exceptions,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

const announceTypes = (tx: Tx, orgId: string) =>
  notifyChange(tx, { collection: 'appointment-types', orgId, ownerIds: [] });

/** What an appointment type names belongs to the organisation: its staff, products, cards. */
async function checkTypeReferences(tx: Tx, orgId: string, input: AppointmentTypeInput) {
  const staff = new Set((await staffOf(tx, orgId)).map((s) => s.userId));
  if (!input.staffUserIds.every((id) => staff.has(id)))
    throw new RuleBroken(appointmentMessages.staffUnknown);
  const found = await productsAmong(tx, orgId, input.entitlingProductIds);
  if (found.length !== new Set(input.entitlingProductIds).size)
    throw new RuleBroken(scheduleMessages.productsUnknown);
  if (input.punchCardGroupIds.length) {
    const groups = await punchCardGroupIdsOf(tx, orgId);
    if (!input.punchCardGroupIds.every((id) => groups.has(id)))
      throw new RuleBroken(scheduleMessages.groupsUnknown);
  }
}

const typeColumns = (input: AppointmentTypeInput) => ({
  title: input.title,
  description: input.description,
  location: input.location,
  durationMinutes: input.durationMinutes,
  bufferMinutes: input.bufferMinutes,
  priceMinor: input.priceMinor,
  staffUserIds: [...new Set(input.staffUserIds)],
  entitlingProductIds: [...new Set(input.entitlingProductIds)],
  punchCardGroupIds: [...new Set(input.punchCardGroupIds)],
});

export async function createAppointmentType(
  db: Db,
  actor: ScheduleActor,
  input: AppointmentTypeInput,
) {
  return db.transaction(async (tx) => {
    const settings = await orgScheduleSettings(tx, actor.orgId);
    if (!settings) throw new NotFound(appointmentMessages.typeNotFound);
    await checkTypeReferences(tx, actor.orgId, input);
    const saved = await repo.insertAppointmentType(tx, {
      ...typeColumns(input),
      orgId: actor.orgId,
      currency: DEFAULT_CURRENCY,
      timeZone: orgTimeZone(settings.timezone),
    });
    await announceTypes(tx, actor.orgId);
    return appointmentTypeToDoc(saved);
  });
}

/** Changes a type for the appointments booked from now on; those booked keep their terms. */
export async function updateAppointmentType(
  db: Db,
  actor: ScheduleActor,
  typeId: string,
  input: AppointmentTypeInput,
) {
  return db.transaction(async (tx) => {
    const existing = await repo.findAppointmentType(tx, actor.orgId, typeId, true);
    if (!existing) throw new NotFound(appointmentMessages.typeNotFound);
    await checkTypeReferences(tx, actor.orgId, input);
    const saved = await repo.updateAppointmentType(tx, typeId, typeColumns(input));
    await announceTypes(tx, actor.orgId);
    return appointmentTypeToDoc(saved);
  });
}

/** No longer offered (a tombstone on devices); appointments already booked stay. */
export async function archiveAppointmentType(db: Db, actor: ScheduleActor, typeId: string) {
  await db.transaction(async (tx) => {
    const existing = await repo.findAppointmentType(tx, actor.orgId, typeId, true);
    if (!existing) throw new NotFound(appointmentMessages.typeNotFound);
    await repo.updateAppointmentType(tx, typeId, { deleted: true });
    await announceTypes(tx, actor.orgId);
  });
}

/** Every member of staff with their appointment hours (none set: empty). */
export async function staffHoursOf(db: Db, orgId: string): Promise<StaffHoursResponse> {
  const [staff, hours] = await Promise.all([staffOf(db, orgId), repo.availabilityOfOrg(db, orgId)]);
  const byUser = new Map(hours.map((row) => [row.userId, row]));
  return {
    staff: staff.map((person) => ({
      userId: person.userId,
      name: person.name,
      weekly: byUser.get(person.userId)?.weekly ?? [],
      exceptions: byUser.get(person.userId)?.exceptions ?? [],
    })),
  };
}

export async function saveStaffHours(
  db: Db,
  actor: ScheduleActor,
  userId: string,
  input: AvailabilityInput,
) {
  return db.transaction(async (tx) => {
    const staffName = await staffNameOf(tx, actor.orgId, userId);
    if (!staffName) throw new NotFound(scheduleMessages.coachUnknown);
    const saved = await repo.saveAvailability(tx, {
      orgId: actor.orgId,
      userId,
      staffName,
      weekly: input.weekly,
      exceptions: [...input.exceptions].sort((a, b) => a.day.localeCompare(b.day)),
    });
    await notifyChange(tx, { collection: 'availability', orgId: actor.orgId, ownerIds: [] });
    const { _deleted: _gone, ...doc } = availabilityToDoc(saved);
    return doc;
  });
}

/**
 * Serialises every check of these staff members' slots to the end of the transaction (the
 * booking write takes it first, before any class time's lock).
 */
export const lockAppointmentSlots = repo.lockStaffSlots;

/** What an appointment asked for becomes: a class time of its own, with what pays for it. */
export type AskedAppointment = {
  row: NewOccurrenceRow & { id: string; startsAt: Date; endsAt: Date; cancelBy: Date };
  terms: {
    priceMinor: number | null;
    entitlingProductIds: string[];
    punchCardGroupIds: string[];
    timeZone: string;
  };
};

/**
 * An appointment asked for (a type, a staff member, a start), checked under that staff member's
 * slot lock: the type still offered, the person still giving it with hours saved, the start
 * still to come and still one of the free starts — the same function the device offered it with.
 * Answers a refusal in words, or the class time to make (not written yet: it is paid first).
 */
export async function checkAskedAppointment(
  tx: Tx,
  input: {
    orgId: string;
    occurrenceId: string;
    asked: { typeId: string; staffUserId: string; startsAt: string };
    now: Date;
    startedMessage: string;
  },
): Promise<{ refusal: string } | AskedAppointment> {
  const { orgId, asked, now } = input;
  if (await repo.occurrenceIdTaken(tx, input.occurrenceId))
    return { refusal: appointmentMessages.slotTaken };
  const type = await repo.findAppointmentType(tx, orgId, asked.typeId);
  if (!type) return { refusal: appointmentMessages.typeGone };
  if (!type.staffUserIds.includes(asked.staffUserId))
    return { refusal: appointmentMessages.staffGone };
  // Still on the team (hours and types outlive a member taken off it).
  const staffName = await staffNameOf(tx, orgId, asked.staffUserId);
  const hours = staffName ? await repo.availabilityOf(tx, orgId, asked.staffUserId) : null;
  if (!staffName || !hours) return { refusal: appointmentMessages.staffGone };
  const startsAt = Date.parse(asked.startsAt);
  const endsAt = startsAt + type.durationMinutes * 60_000;
  if (startsAt <= now.getTime()) return { refusal: input.startedMessage };
  if (startsAt > now.getTime() + APPOINTMENT_HORIZON_MS)
    return { refusal: appointmentMessages.tooFarAhead };
  const buffer = type.bufferMinutes * 60_000;
  const busy = await repo.busyTimesOf(tx, asked.staffUserId, {
    from: new Date(startsAt - buffer),
    to: new Date(endsAt + buffer),
  });
  const free = slotIsFree({
    type,
    hours,
    busy,
    notBefore: now.getTime(),
    startsAt,
  });
  if (!free) return { refusal: appointmentMessages.slotTaken };

  const settings = await orgScheduleSettings(tx, orgId);
  const cutoff = settings?.cancelCutoffHours ?? DEFAULT_CANCEL_CUTOFF_HOURS;
  return {
    row: {
      id: input.occurrenceId,
      orgId,
      classId: null,
      appointmentTypeId: type.id,
      ruleDay: dayKeyOf(startsAt, orgTimeZone(type.timeZone)),
      title: type.title,
      kind: 'appointment',
      location: type.location,
      coachUserId: asked.staffUserId,
      coachName: staffName,
      startsAt: new Date(startsAt),
      endsAt: new Date(endsAt),
      capacity: 1,
      bookedCount: 0,
      waitlistCount: 0,
      cancelBy: new Date(cancelByOf(startsAt, cutoff)),
      status: 'scheduled',
      detached: true,
    },
    terms: {
      priceMinor: type.priceMinor,
      entitlingProductIds: type.entitlingProductIds,
      punchCardGroupIds: type.punchCardGroupIds,
      timeZone: type.timeZone,
    },
  };
}

/** Writes an appointment checked above, its one place taken. */
export async function saveAppointment(tx: Tx, appointment: AskedAppointment): Promise<void> {
  await insertOccurrences(tx, [{ ...appointment.row, bookedCount: 1 }]);
}
