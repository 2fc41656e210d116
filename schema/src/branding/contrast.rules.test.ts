import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AA_TEXT_CONTRAST,
  contrastRatio,
  nearestReadableColour,
  readableWithWhiteText,
} from './contrast.rules.ts';

const hexColour = fc
  .tuple(fc.nat(255), fc.nat(255), fc.nat(255))
  .map((rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`);

describe('contrast rules (WCAG AA)', () => {
  it('measures the known ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // The platform's own teal carries white text; a pale yellow does not.
    expect(readableWithWhiteText('#0f766e')).toBe(true);
    expect(readableWithWhiteText('#fde68a')).toBe(false);
    expect(readableWithWhiteText('not a colour')).toBe(false);
  });

  it('suggests a colour that passes, keeps one that passes, and stays as close as it can', () => {
    fc.assert(
      fc.property(hexColour, (colour) => {
        const suggested = nearestReadableColour(colour);
        expect(contrastRatio(suggested, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
        if (readableWithWhiteText(colour)) expect(suggested).toBe(colour);
        else {
          // Darkened no further than needed: one step lighter would fail.
          const lighter = suggested
            .slice(1)
            .match(/../g)!
            .map((pair) => Math.min(255, parseInt(pair, 16) + 2));
          const lighterHex = `#${lighter.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
          expect(contrastRatio(lighterHex, '#ffffff')).toBeLessThan(AA_TEXT_CONTRAST + 0.3);
        }
      }),
      { numRuns: 500 },
    );
  });
});
