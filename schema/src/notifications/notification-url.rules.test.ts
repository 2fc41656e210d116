import { describe, expect, it } from 'vitest';
import { isSameOriginPath, notificationTargetUrl } from './notification-url.rules.ts';

const origin = 'https://app.example.test';

describe('notification links stay on our site', () => {
  it('accepts paths of this site', () => {
    expect(isSameOriginPath('/dashboard')).toBe(true);
    expect(isSameOriginPath('/dashboard/bookings?day=2026-11-24#top')).toBe(true);
    expect(notificationTargetUrl('/dashboard/bookings?x=1', origin)).toBe(
      `${origin}/dashboard/bookings?x=1`,
    );
  });

  it('refuses other sites, protocol-relative and script URLs, falling back to the start page', () => {
    for (const url of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
      'dashboard',
      '',
      42,
      null,
      undefined,
    ]) {
      expect(notificationTargetUrl(url, origin)).toBe(`${origin}/`);
    }
    expect(isSameOriginPath('//evil.test')).toBe(false);
    expect(isSameOriginPath('/\\evil.test')).toBe(false);
  });

  it('a path that a browser would resolve elsewhere still lands on our origin', () => {
    expect(notificationTargetUrl('/%2F%2Fevil.test', origin)).toBe(`${origin}/%2F%2Fevil.test`);
    expect(new URL(notificationTargetUrl('/..//evil.test', origin)).origin).toBe(origin);
  });
});
