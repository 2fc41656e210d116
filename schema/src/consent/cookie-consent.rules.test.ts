import { describe, expect, it } from 'vitest';
import { cookieConsentKey } from './cookie-consent.rules.ts';

describe('cookieConsentKey (spec §4, §9)', () => {
  it('is per host and per month', () => {
    const nov = cookieConsentKey('app.example', new Date('2026-11-30T23:00:00Z'));
    expect(nov).toBe('cookie-consent:app.example:2026-11');
    expect(cookieConsentKey('app.example', new Date('2026-12-01T00:00:00Z'))).not.toBe(nov);
    expect(cookieConsentKey('other.example', new Date('2026-11-30T23:00:00Z'))).not.toBe(nov);
  });
});
