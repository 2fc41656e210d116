import { describe, expect, it } from 'vitest';
import { isFramedByTheApp, outsideServicesOf } from './outside-services.rules.ts';

describe('outsideServicesOf', () => {
  it('gives Google sign-in to its own page only', () => {
    expect(outsideServicesOf('/auth/login-with-google')).toEqual(['google-sign-in']);
    expect(outsideServicesOf('/auth/login-with-google/')).toEqual(['google-sign-in']);
    for (const path of [
      '/auth/login',
      '/auth/signup',
      '/dashboard',
      '/',
      '/auth/login-with-google-x',
      '/constructor',
      '/toString',
    ]) {
      expect(outsideServicesOf(path)).toEqual([]);
    }
  });

  it('gives Stripe to the card-entry page only, the one page the app may frame', () => {
    expect(outsideServicesOf('/payments/card-entry')).toEqual(['stripe']);
    expect(outsideServicesOf('/payments/card-entry/')).toEqual(['stripe']);
    expect(outsideServicesOf('/payments')).toEqual([]);
    expect(isFramedByTheApp('/payments/card-entry')).toBe(true);
    for (const path of ['/auth/login-with-google', '/dashboard', '/', '/payments/card-entry-x'])
      expect(isFramedByTheApp(path)).toBe(false);
  });
});
