import { describe, expect, it } from 'vitest';
import { mergeBookings } from '../bookings/booking.conflict.ts';
import type { BookingDoc } from '../bookings/booking.zod.ts';
import { syncMessages } from '../sync/sync.messages.ts';
import { clockMessages } from '../time-tracking/time-clock.rules.ts';
import { kioskMessages } from './kiosk.messages.ts';
import {
  checkInOpen,
  kioskCheckInRefusal,
  withinKioskReach,
  type CheckInClassTime,
} from './kiosk-check-in.rules.ts';

const orgId = '7d3f2a4e-2222-4c1a-9a55-0c1f0d6d1a01';
const occurrenceId = '7d3f2a4e-4444-4c1a-9a55-0c1f0d6d1a01';
const at = (hhmm: string, day = '2026-11-23') => `${day}T${hhmm}:00.000Z`;
// The class runs 18:00–19:00; the server's clock says 18:10.
const now = new Date(at('18:10'));
const spin = (overrides: Partial<CheckInClassTime> = {}): CheckInClassTime => ({
  id: occurrenceId,
  orgId,
  startsAt: at('18:00'),
  endsAt: at('19:00'),
  status: 'scheduled',
  ...overrides,
});
const booked = (overrides: Partial<BookingDoc & { _deleted: boolean }> = {}) => ({
  id: '7d3f2a4e-1111-4c1a-9a55-0c1f0d6d1a01',
  orgId,
  customerUserId: '7d3f2a4e-3333-4c1a-9a55-0c1f0d6d1a01',
  customerName: 'Pat Parent',
  occurrenceId,
  status: 'booked' as BookingDoc['status'],
  appointment: null as BookingDoc['appointment'],
  joinWaitlist: false,
  paidWith: 'free' as BookingDoc['paidWith'],
  refusal: null,
  requestedAt: at('09:00', '2026-11-20'),
  decidedAt: at('09:00', '2026-11-20'),
  checkedInAt: null as string | null,
  updatedAt: at('09:00', '2026-11-20'),
  _deleted: false,
  ...overrides,
});
const checkedIn = (when: string) =>
  booked({ status: 'attended', checkedInAt: when, updatedAt: when });

describe('what a kiosk may push to bookings (check-ins only)', () => {
  it('accepts checking in a booked person while the class is on, offline times included', () => {
    expect(kioskCheckInRefusal(booked(), checkedIn(at('18:05')), spin(), now)).toBeNull();
    // Made at 18:05 on a kiosk that was offline, sent at 23:00: judged at 18:05.
    expect(
      kioskCheckInRefusal(booked(), checkedIn(at('18:05')), spin(), new Date(at('23:00'))),
    ).toBeNull();
    // The server sets checkedInAt; a device that merged a conflict sends none.
    const merged = mergeBookings(booked(), checkedIn(at('18:05')));
    expect(merged.checkedInAt).toBeNull();
    expect(kioskCheckInRefusal(booked(), merged, spin(), now)).toBeNull();
  });

  it('opens an hour before the start and closes twelve hours after the end', () => {
    const open = (hhmm: string, day?: string) => checkInOpen(spin(), Date.parse(at(hhmm, day)));
    expect(open('16:59')).toBe(false);
    expect(open('17:00')).toBe(true);
    expect(open('19:00')).toBe(true);
    expect(open('06:59', '2026-11-24')).toBe(true);
    expect(open('07:00', '2026-11-24')).toBe(false);
    expect(checkInOpen(spin({ status: 'cancelled' }), Date.parse(at('18:05')))).toBe(false);

    const early = checkedIn(at('16:30'));
    expect(kioskCheckInRefusal(booked(), early, spin(), now)).toBe(kioskMessages.checkInClosed);
    // A class tomorrow, checked in today.
    const tomorrow = spin({
      startsAt: at('18:00', '2026-11-24'),
      endsAt: at('19:00', '2026-11-24'),
    });
    expect(kioskCheckInRefusal(booked(), checkedIn(at('18:05')), tomorrow, now)).toBe(
      kioskMessages.checkInClosed,
    );
  });

  it('never takes a device time ahead of the server', () => {
    const later = checkedIn(at('18:30'));
    expect(kioskCheckInRefusal(booked(), later, spin(), now)).toBe(clockMessages.inTheFuture);
    expect(kioskCheckInRefusal(booked(), checkedIn(at('18:14')), spin(), now)).toBeNull();
  });

  it('refuses a cancelled class', () => {
    expect(
      kioskCheckInRefusal(booked(), checkedIn(at('18:05')), spin({ status: 'cancelled' }), now),
    ).toBe(kioskMessages.checkInClassCancelled);
  });

  it('refuses anything but the check-in: a new booking, a deletion, a cancellation, other fields', () => {
    const tap = checkedIn(at('18:05'));
    expect(kioskCheckInRefusal(null, tap, spin(), now)).toBe(kioskMessages.checkInsOnly);
    expect(kioskCheckInRefusal(null, booked({ status: 'requested' }), spin(), now)).toBe(
      kioskMessages.checkInsOnly,
    );
    expect(kioskCheckInRefusal(booked(), { ...booked(), _deleted: true }, spin(), now)).toBe(
      kioskMessages.checkInsOnly,
    );
    for (const status of ['cancelled', 'no-show', 'requested', 'waitlisted'] as const)
      expect(kioskCheckInRefusal(booked(), { ...tap, status }, spin(), now), status).toBe(
        kioskMessages.checkInsOnly,
      );
    // Only a booked person is checked in.
    for (const status of ['requested', 'waitlisted', 'refused', 'cancelled', 'no-show'] as const)
      expect(kioskCheckInRefusal(booked({ status }), tap, spin(), now), status).toBe(
        kioskMessages.checkInsOnly,
      );
    const otherFields: Array<Partial<BookingDoc>> = [
      { customerUserId: '7d3f2a4e-5555-4c1a-9a55-0c1f0d6d1a01' },
      { customerName: 'Someone Else' },
      { joinWaitlist: true },
      { paidWith: 'desk' },
      { refusal: 'no' },
      { requestedAt: at('10:00', '2026-11-20') },
      { decidedAt: null },
      { appointment: { typeId: orgId, staffUserId: orgId, startsAt: at('18:00') } },
    ];
    for (const change of otherFields)
      expect(
        kioskCheckInRefusal(booked(), { ...tap, ...change }, spin(), now),
        JSON.stringify(change),
      ).toBe(kioskMessages.checkInsOnly);
  });

  it('answers a booking out of reach as any document out of reach', () => {
    const tap = checkedIn(at('18:05'));
    expect(kioskCheckInRefusal(booked(), tap, null, now)).toBe(syncMessages.notAmongYours);
    // Another organisation's class time under that id.
    expect(
      kioskCheckInRefusal(
        booked(),
        tap,
        spin({ orgId: '7d3f2a4e-9999-4c1a-9a55-0c1f0d6d1a01' }),
        now,
      ),
    ).toBe(syncMessages.notAmongYours);
    // A class of last week, by the server's clock, whatever the kiosk's says.
    const lastWeek = spin({
      startsAt: at('18:00', '2026-11-16'),
      endsAt: at('19:00', '2026-11-16'),
    });
    expect(withinKioskReach(booked(), lastWeek, now)).toBe(false);
    expect(kioskCheckInRefusal(booked(), checkedIn(at('18:05', '2026-11-16')), lastWeek, now)).toBe(
      syncMessages.notAmongYours,
    );
    expect(withinKioskReach(booked(), spin(), now)).toBe(true);
  });

  it('lets a mistaken tap be undone within ten minutes, and a repeated tap through', () => {
    const tapped = checkedIn(at('18:05'));
    const undo = (when: string) => booked({ updatedAt: when });
    expect(kioskCheckInRefusal(tapped, undo(at('18:10')), spin(), now)).toBeNull();
    expect(
      kioskCheckInRefusal(tapped, undo(at('18:15')), spin(), new Date(at('18:30'))),
    ).toBeNull();
    expect(kioskCheckInRefusal(tapped, undo(at('18:16')), spin(), new Date(at('18:30')))).toBe(
      kioskMessages.undoTooLate,
    );
    // Two kiosks both tapped: the second finds the person already checked in.
    expect(
      kioskCheckInRefusal(tapped, { ...tapped, updatedAt: at('18:07') }, spin(), now),
    ).toBeNull();
    // Attendance turned into a no-show or a cancellation is staff's, not the kiosk's.
    expect(kioskCheckInRefusal(tapped, { ...tapped, status: 'no-show' }, spin(), now)).toBe(
      kioskMessages.checkInsOnly,
    );
  });
});
