import { describe, expect, it } from 'vitest';
import { familyMessages } from './families.messages.ts';
import { ageOn, ageText, dateOfBirthProblem, dateOfBirthSchema } from './date-of-birth.rules.ts';

const at = (iso: string) => Date.parse(iso);

describe('a child’s date of birth', () => {
  it('is a real calendar day, not in the future anywhere, within 120 years', () => {
    const now = at('2026-11-24T02:00:00Z');
    // In Kiribati (UTC+14) it is already the 24th at 16:00; in Samoa's neighbours the 23rd.
    expect(dateOfBirthProblem('2026-11-24', now)).toBeNull();
    expect(dateOfBirthProblem('2026-11-25', now)).toBe(familyMessages.dateOfBirthInFuture);
    expect(dateOfBirthProblem('1906-11-23', now)).toBeNull();
    expect(dateOfBirthProblem('1906-11-22', now)).toBe(familyMessages.dateOfBirthTooLongAgo);
    expect(dateOfBirthSchema.safeParse('2019-02-29').error?.issues[0]?.message).toBe(
      familyMessages.dateOfBirthInvalid,
    );
    expect(dateOfBirthSchema.safeParse('2020-02-29').success).toBe(true);
  });

  it('gives the age in whole years, months for babies', () => {
    expect(ageOn('2017-05-04', '2026-05-03')).toBe(8);
    expect(ageOn('2017-05-04', '2026-05-04')).toBe(9);
    expect(ageOn('2020-02-29', '2021-02-28')).toBe(0);
    expect(ageOn('2020-02-29', '2021-03-01')).toBe(1);
    expect(ageText('2017-05-04', '2026-11-24')).toBe('Age 9');
    expect(ageText('2026-01-10', '2026-11-24')).toBe('10 months');
    expect(ageText('2026-11-03', '2026-11-24')).toBe('3 weeks');
    expect(ageText('2026-11-22', '2026-11-24')).toBe('Newborn');
  });
});
