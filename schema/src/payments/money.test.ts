import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, formatMoney, parseMoneyInput } from './money.ts';

describe('money in minor units', () => {
  it('divides integers rounding half up', () => {
    expect([
      divideRounded(1, 2),
      divideRounded(3, 2),
      divideRounded(5, 4),
      divideRounded(7, 4),
    ]).toEqual([1, 2, 1, 2]);
    expect(divideRounded(0, 7)).toBe(0);
    expect(() => divideRounded(1.5, 2)).toThrow(RangeError);
    expect(() => divideRounded(1, 0)).toThrow(RangeError);
  });

  it('rounds to the nearest integer, as exact rational arithmetic would', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 100_000 }),
        (n, d) => {
          const q = divideRounded(n, d);
          // n/d − q is in [−1/2, 1/2): ties go up, so 2n − 2qd is in [−d, d).
          const twice = 2 * n - 2 * q * d;
          expect(twice >= -d && twice < d).toBe(true);
        },
      ),
    );
  });

  it('shows amounts divided by 100 in the currency (spec §9)', () => {
    expect(formatMoney(123_456)).toBe('$1,234.56');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(-250)).toBe('-$2.50');
    expect(formatMoney(9_900, 'EUR', 'en-IE')).toBe('€99.00');
  });

  it('reads typed prices without floating point', () => {
    expect(parseMoneyInput('12')).toBe(1_200);
    expect(parseMoneyInput(' 12.5 ')).toBe(1_250);
    expect(parseMoneyInput('0.29')).toBe(29);
    expect(parseMoneyInput('1,200.07')).toBe(120_007);
    for (const bad of ['', 'abc', '1.234', '-5', '1e3', '12.'])
      expect(parseMoneyInput(bad)).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (minor) => {
        const text = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
        expect(parseMoneyInput(text)).toBe(minor);
      }),
    );
  });
});
