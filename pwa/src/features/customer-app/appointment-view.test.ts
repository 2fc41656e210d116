import { describe, expect, it } from 'vitest';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type {
  AppointmentTypeDoc,
  AvailabilityDoc,
} from '@platform/schema/schedule/appointments.zod';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import {
  appointmentRequest,
  askedAppointmentTime,
  busyOf,
  slotsOfType,
} from './appointment-view.ts';

const staffId = '00000000-0000-4000-8000-000000000001';
const type: AppointmentTypeDoc = {
  id: '00000000-0000-4000-8000-0000000000aa',
  orgId: '00000000-0000-4000-8000-0000000000ff',
  title: 'Personal training',
  description: '',
  location: 'Room 2',
  durationMinutes: 60,
  bufferMinutes: 0,
  priceMinor: null,
  currency: 'USD',
  staffUserIds: [staffId],
  entitlingProductIds: [],
  punchCardGroupIds: [],
  timeZone: 'UTC',
  updatedAt: '2027-01-01T00:00:00.000Z',
};
const hours: AvailabilityDoc = {
  id: '00000000-0000-4000-8000-0000000000bb',
  orgId: type.orgId,
  userId: staffId,
  staffName: 'Sam Coach',
  weekly: [{ weekday: 'MO', from: '09:00', to: '12:00' }],
  exceptions: [],
  updatedAt: type.updatedAt,
};
// Monday 2027-03-01.
const monday = Date.parse('2027-03-01T00:00:00.000Z');
const at = (hhmm: string) => Date.parse(`2027-03-01T${hhmm}:00.000Z`);
const window = { from: monday, to: monday + 7 * 86_400_000 };
const time = (from: string, over: Partial<OccurrenceDoc> = {}): OccurrenceDoc => ({
  id: crypto.randomUUID(),
  orgId: type.orgId,
  classId: null,
  appointmentTypeId: type.id,
  kind: 'appointment',
  title: 'Personal training',
  location: '',
  coachUserId: staffId,
  coachName: 'Sam Coach',
  startsAt: new Date(at(from)).toISOString(),
  endsAt: new Date(at(from) + 3_600_000).toISOString(),
  capacity: 1,
  bookedCount: 1,
  waitlistCount: 0,
  cancelBy: new Date(at(from)).toISOString(),
  status: 'scheduled',
  detached: true,
  updatedAt: type.updatedAt,
  ...over,
});
const ask = (from: string, over: Partial<BookingDoc> = {}): BookingDoc => ({
  ...appointmentRequest({
    id: crypto.randomUUID(),
    occurrenceId: crypto.randomUUID(),
    orgId: type.orgId,
    personId: crypto.randomUUID(),
    personName: 'Ann',
    typeId: type.id,
    staffUserId: staffId,
    startsAt: at(from),
    now: new Date(monday - 86_400_000),
  }),
  ...over,
});
const starts = (occurrences: OccurrenceDoc[], asked: BookingDoc[] = []) =>
  slotsOfType({
    type,
    hours: [hours],
    occurrences,
    asked,
    types: new Map([[type.id, type]]),
    window,
    now: monday - 86_400_000,
  })[0]!.slots.map((s) => new Date(s.from).toISOString().slice(11, 16));

describe('appointments on the device', () => {
  it('offers the hours minus appointments anyone holds, classes led, and the requests not yet answered', () => {
    expect(starts([])).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
    ]);
    expect(starts([time('09:00')])).toEqual(['10:00', '10:15', '10:30', '10:45', '11:00']);
    // Cancelled: free again. Another staff member's: not this one's business.
    expect(starts([time('09:00', { status: 'cancelled' })])).toHaveLength(9);
    expect(starts([time('09:00', { coachUserId: crypto.randomUUID() })])).toHaveLength(9);
    // Asked on this device, not answered yet: kept free of a second ask.
    expect(starts([], [ask('11:00')])).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00']);
    // Withdrawn or refused: no longer counted.
    expect(starts([], [ask('11:00', { status: 'cancelled' })])).toHaveLength(9);
  });

  it('keeps the buffer of the type each appointment was booked as', () => {
    const padded = { ...type, id: crypto.randomUUID(), bufferMinutes: 30 };
    const held = time('09:00', { appointmentTypeId: padded.id });
    const busy = busyOf(staffId, [held], [], new Map([[padded.id, padded]]));
    expect(busy).toEqual([{ from: at('09:00'), to: at('10:00'), bufferMs: 30 * 60_000 }]);
    // A type without a buffer still starts no earlier than 10:30 beside it.
    expect(
      slotsOfType({
        type,
        hours: [hours],
        occurrences: [held],
        asked: [],
        types: new Map([[padded.id, padded]]),
        window,
        now: monday - 86_400_000,
      })[0]!.slots.map((s) => new Date(s.from).toISOString().slice(11, 16)),
    ).toEqual(['10:30', '10:45', '11:00']);
  });

  it('counts an answered request once, by its class time', () => {
    const booked = ask('10:00', { status: 'booked' });
    const arrived = time('10:00', { id: booked.occurrenceId });
    expect(busyOf(staffId, [arrived], [booked], new Map([[type.id, type]]))).toHaveLength(1);
  });

  it('stands a request in for its class time until the server makes it', () => {
    const request = ask('10:00');
    expect(askedAppointmentTime(request, type, 'Sam Coach')).toMatchObject({
      id: request.occurrenceId,
      kind: 'appointment',
      title: 'Personal training',
      location: 'Room 2',
      coachName: 'Sam Coach',
      startsAt: '2027-03-01T10:00:00.000Z',
      endsAt: '2027-03-01T11:00:00.000Z',
    });
    expect(request).toMatchObject({ status: 'requested', joinWaitlist: false, paidWith: null });
    expect(askedAppointmentTime({ ...request, appointment: null }, type, null)).toBeNull();
  });
});
