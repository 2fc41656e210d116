import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { partsBySize } from './push-parts.ts';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('partsBySize', () => {
  it('keeps every part within the size, in order, each row once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ id: fc.uuid(), body: fc.string({ unit: 'grapheme', maxLength: 400 }) }),
          {
            maxLength: 60,
          },
        ),
        fc.integer({ min: 2, max: 3000 }),
        (rows, maxBytes) => {
          const parts = partsBySize(rows, maxBytes);
          expect(parts.flat()).toEqual(rows);
          for (const part of parts) {
            expect(part.length).toBeGreaterThan(0);
            if (part.length > 1) expect(bytes(part)).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });

  it('counts bytes, not characters: three-byte text fills a part three times as fast', () => {
    const row = { body: '練'.repeat(100) }; // 300 bytes of text, 311 as JSON
    expect(bytes(row)).toBe(311);
    expect(partsBySize([row, row, row], 700).map((part) => part.length)).toEqual([2, 1]);
    const whole = bytes([row, row, row]);
    expect(partsBySize([row, row, row], whole)).toHaveLength(1);
    expect(partsBySize([row, row, row], whole - 1)).toHaveLength(2);
  });

  it('sends a row larger than the size alone, and nothing for nothing', () => {
    const big = { body: 'x'.repeat(50) };
    expect(partsBySize([big, { a: 1 }], 10)).toEqual([[big], [{ a: 1 }]]);
    expect(partsBySize([], 10)).toEqual([]);
  });
});
