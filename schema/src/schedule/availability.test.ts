import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dayRange, wallTimeOf, type Range } from '../time-tracking/org-calendar.ts';
import {
  availabilityExceptionSchema,
  freeSlots,
  weeklyAvailabilitySchema,
  type SlotRequest,
} from './availability.ts';

const NY = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const times = (slots: Range[]) => slots.map((s) => wallTimeOf(s.from, NY));

// Monday 2026-06-01 and Tuesday 2026-06-02, New York (EDT, UTC−4).
const base: SlotRequest = {
  availability: [
    { weekday: 'MO', from: '09:00', to: '11:00' },
    { weekday: 'TU', from: '14:00', to: '15:00' },
  ],
  busy: [],
  durationMinutes: 60,
  bufferMinutes: 0,
  stepMinutes: 30,
  timeZone: NY,
  window: dayRange('2026-06-01', NY),
  notBefore: 0,
};

describe('free appointment slots', () => {
  it('offers every start of the appointment’s length within the day’s hours', () => {
    expect(times(freeSlots(base))).toEqual(['09:00', '09:30', '10:00']);
    expect(freeSlots(base).every((s) => s.to - s.from === 3_600_000)).toBe(true);
  });

  it('leaves out what overlaps a booking, with the buffer kept clear on both sides', () => {
    const busy = [{ from: at('2026-06-01T14:00:00Z'), to: at('2026-06-01T14:30:00Z') }]; // 10:00–10:30
    expect(times(freeSlots({ ...base, busy }))).toEqual(['09:00']);
    // A 15-minute buffer: 09:00–10:00 ends right where the booking starts — refused.
    expect(times(freeSlots({ ...base, busy, bufferMinutes: 15 }))).toEqual([]);
    const early = [{ from: at('2026-06-01T13:00:00Z'), to: at('2026-06-01T13:30:00Z') }]; // 09:00–09:30
    expect(times(freeSlots({ ...base, busy: early, bufferMinutes: 30 }))).toEqual(['10:00']);
  });

  it('takes a day off or other hours from an exception, and nothing before notBefore', () => {
    expect(freeSlots({ ...base, exceptions: [{ day: '2026-06-01', hours: [] }] })).toEqual([]);
    const other = freeSlots({
      ...base,
      exceptions: [{ day: '2026-06-01', hours: [{ from: '18:00', to: '19:30' }] }],
    });
    expect(times(other)).toEqual(['18:00', '18:30']);
    expect(times(freeSlots({ ...base, notBefore: at('2026-06-01T13:15:00Z') }))).toEqual([
      '09:30',
      '10:00',
    ]);
  });

  it('keeps the hours on the wall clock on the day clocks go forward', () => {
    const sunday = freeSlots({
      ...base,
      availability: [{ weekday: 'SU', from: '09:00', to: '10:00' }],
      window: dayRange('2026-03-08', NY),
    });
    expect(sunday.map((s) => new Date(s.from).toISOString())).toEqual([
      '2026-03-08T13:00:00.000Z', // 09:00 EDT
    ]);
  });

  it('checks what staff enter', () => {
    expect(
      weeklyAvailabilitySchema.safeParse([{ weekday: 'MO', from: '17:00', to: '09:00' }]).success,
    ).toBe(false);
    expect(
      weeklyAvailabilitySchema.safeParse([{ weekday: 'XX', from: '09:00', to: '10:00' }]).success,
    ).toBe(false);
    expect(availabilityExceptionSchema.safeParse({ day: '2026-02-30', hours: [] }).success).toBe(
      false,
    );
    expect(weeklyAvailabilitySchema.safeParse(base.availability).success).toBe(true);
  });

  it('never offers a slot that meets a booking’s buffer or leaves the hours (property)', () => {
    const minute = 60_000;
    const dayStart = at('2026-06-01T04:00:00Z'); // midnight in New York
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 24 * 60 - 1 }),
            length: fc.integer({ min: 5, max: 180 }),
          }),
          { maxLength: 8 },
        ),
        fc.integer({ min: 15, max: 120 }),
        fc.integer({ min: 0, max: 30 }),
        (bookings, duration, buffer) => {
          const busy = bookings.map((b) => ({
            from: dayStart + b.start * minute,
            to: dayStart + (b.start + b.length) * minute,
          }));
          const slots = freeSlots({
            ...base,
            availability: [{ weekday: 'MO', from: '08:00', to: '18:00' }],
            busy,
            durationMinutes: duration,
            bufferMinutes: buffer,
            stepMinutes: 15,
          });
          const opens = dayStart + 8 * 60 * minute;
          const closes = dayStart + 18 * 60 * minute;
          return slots.every(
            (s) =>
              s.from >= opens &&
              s.to <= closes &&
              busy.every(
                (b) => b.to + buffer * minute <= s.from || b.from - buffer * minute >= s.to,
              ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
