import { describe, expect, it } from 'vitest';
import { outsideServicesOf } from './outside-services.rules.ts';

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
});
