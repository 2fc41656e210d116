import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addPeriods,
  billingDateAfter,
  clampBillingDay,
  daysInMonth,
  nextBillingDay,
  schedules,
  type RecurringSchedule,
} from './billing-calendar.ts';

describe('the billing calendar', () => {
  it('keeps the day of the month, or the month’s last day where it is shorter', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-24', 3)).toBe('2027-02-24');
    expect(addMonths('2026-12-15', -12)).toBe('2025-12-15');
    expect(addPeriods('2028-02-29', 'year')).toBe('2029-02-28');
    expect(addPeriods('2026-12-29', 'bi-weekly')).toBe('2027-01-12');
  });

  it('knows leap years', () => {
    expect([
      daysInMonth(2026, 2),
      daysInMonth(2028, 2),
      daysInMonth(2100, 2),
      daysInMonth(2000, 2),
    ]).toEqual([28, 29, 28, 29]);
  });

  it('clamps the billing day to 1–28, default 1 (spec §9)', () => {
    expect([
      clampBillingDay(0),
      clampBillingDay(31),
      clampBillingDay(15),
      clampBillingDay(null),
    ]).toEqual([1, 28, 15, 1]);
  });

  it('finds the next occurrence of the billing day', () => {
    expect(nextBillingDay('2026-11-24', 1)).toBe('2026-12-01');
    expect(nextBillingDay('2026-11-24', 28)).toBe('2026-11-28');
    expect(nextBillingDay('2026-11-28', 28)).toBe('2026-11-28');
    expect(nextBillingDay('2026-12-31', 15)).toBe('2027-01-15');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 28 }),
        (date, billingDay) => {
          const from = date.toISOString().slice(0, 10);
          const next = nextBillingDay(from, billingDay);
          expect(next >= from).toBe(true);
          expect(Number(next.slice(8))).toBe(billingDay);
          // Within a month: never skips an occurrence.
          expect(next <= addMonths(from, 1)).toBe(true);
        },
      ),
    );
  });

  it('finds the billing date after a day, counted from the anchor (never from the last date)', () => {
    expect(billingDateAfter('2027-01-31', 'month', '2027-02-28')).toBe('2027-03-31');
    expect(billingDateAfter('2027-01-31', 'month', '2027-01-30')).toBe('2027-01-31');
    expect(billingDateAfter('2026-11-24', 'week', '2026-12-01')).toBe('2026-12-08');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 4000 }),
        fc.constantFrom(...schedules.filter((s): s is RecurringSchedule => s !== 'one-time')),
        (date, later, schedule) => {
          const anchor = date.toISOString().slice(0, 10);
          const day = addDays(anchor, later);
          const after = billingDateAfter(anchor, schedule, day);
          expect(after > day).toBe(true);
          // It is a billing date, and the one before it is not after `day`: none is skipped.
          let k = 0;
          while (addPeriods(anchor, schedule, k) < after) k++;
          expect(addPeriods(anchor, schedule, k)).toBe(after);
          expect(addPeriods(anchor, schedule, k - 1) <= day).toBe(true);
        },
      ),
    );
  });
});
