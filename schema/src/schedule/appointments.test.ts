import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appointmentSlots, appointmentTypeInputSchema, slotIsFree } from './appointments.zod.ts';

const type = { durationMinutes: 60, bufferMinutes: 15, timeZone: 'Europe/Berlin' };
const hours = {
  weekly: [{ weekday: 'MO' as const, from: '09:00', to: '13:00' }],
  exceptions: [{ day: '2027-03-15', hours: [] }],
};
// Monday 2027-03-08, 09:00 in Berlin (UTC+1).
const nine = Date.parse('2027-03-08T08:00:00.000Z');
const minutes = (n: number) => n * 60_000;

/**
 * The slot check the device offers with and the server books with (appointments.zod.ts): the
 * same answer on both sides, so what a customer picks offline is what the server accepts.
 */
describe('appointment slots', () => {
  it('agrees with the offered slots: every offered start is free, nothing else is', () => {
    const window = { from: nine - minutes(60), to: nine + minutes(6 * 60) };
    const offered = appointmentSlots({ type, hours, busy: [], window, notBefore: 0 });
    expect(offered.map((s) => (s.from - nine) / 60_000)).toEqual([
      0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150, 165, 180,
    ]);
    for (let start = window.from; start < window.to; start += minutes(5))
      expect(slotIsFree({ type, hours, busy: [], notBefore: 0, startsAt: start })).toBe(
        offered.some((s) => s.from === start),
      );
  });

  it('keeps the buffer clear around what the staff member is busy with', () => {
    const busy = [{ from: nine + minutes(120), to: nine + minutes(180) }];
    const free = (at: number) =>
      slotIsFree({ type, hours, busy, notBefore: 0, startsAt: nine + minutes(at) });
    expect(free(0)).toBe(true);
    expect(free(45)).toBe(true); // ends 10:45, the buffer reaches 11:00 exactly
    expect(free(60)).toBe(false); // ends 11:00, into the buffer before 11:00
    expect(free(180)).toBe(false); // would end at 13:00 but starts in the buffer after 12:00
  });

  it('refuses a day off, a start before notBefore, and no hours at all', () => {
    const dayOff = Date.parse('2027-03-15T08:00:00.000Z');
    expect(slotIsFree({ type, hours, busy: [], notBefore: 0, startsAt: dayOff })).toBe(false);
    expect(slotIsFree({ type, hours, busy: [], notBefore: nine + 1, startsAt: nine })).toBe(false);
    expect(slotIsFree({ type, hours: null, busy: [], notBefore: 0, startsAt: nine })).toBe(false);
  });

  it('holds the hours on the wall clock after the clocks go forward', () => {
    // Berlin moves to UTC+2 on 2027-03-28: Monday the 29th opens at 07:00 UTC.
    const after = Date.parse('2027-03-29T07:00:00.000Z');
    expect(slotIsFree({ type, hours, busy: [], notBefore: 0, startsAt: after })).toBe(true);
    expect(slotIsFree({ type, hours, busy: [], notBefore: 0, startsAt: after - minutes(60) })).toBe(
      false,
    );
  });

  it('never calls a start free that overlaps the busy time with its buffer (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 48 }),
        fc.integer({ min: 0, max: 240 }),
        fc.integer({ min: 5, max: 120 }),
        (startQuarter, busyOffset, busyLength) => {
          const startsAt = nine - minutes(60) + minutes(startQuarter * 5);
          const busy = [
            { from: nine + minutes(busyOffset), to: nine + minutes(busyOffset + busyLength) },
          ];
          if (!slotIsFree({ type, hours, busy, notBefore: 0, startsAt })) return;
          const end = startsAt + minutes(type.durationMinutes);
          const buffer = minutes(type.bufferMinutes);
          expect(busy[0]!.from >= end + buffer || busy[0]!.to <= startsAt - buffer).toBe(true);
        },
      ),
    );
  });

  it('checks what staff enter for a type, in the spec’s words', () => {
    const base = { title: 'PT', durationMinutes: 60, staffUserIds: [crypto.randomUUID()] };
    expect(appointmentTypeInputSchema.safeParse(base).success).toBe(true);
    const message = (over: object) =>
      appointmentTypeInputSchema.safeParse({ ...base, ...over }).error?.issues[0]?.message;
    expect(message({ durationMinutes: 4 })).toBe('Duration must be 5 minutes to 8 hours.');
    expect(message({ bufferMinutes: -1 })).toBe('The buffer must be 0 to 240 minutes.');
    expect(message({ staffUserIds: [] })).toBe(
      'Choose at least one member of staff who gives this appointment.',
    );
    expect(message({ title: '  ' })).toBe('Title is required.');
  });
});
