import { describe, expect, it } from 'vitest';
import { afterSignupPath, safeRedirectPath } from './redirect.rules.ts';

describe('safeRedirectPath', () => {
  it.each([
    ['/dashboard/crm', '/dashboard/crm'],
    ['/dashboard-customer/abc/shop?x=1#top', '/dashboard-customer/abc/shop?x=1#top'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeRedirectPath(input, '/dashboard')).toBe(expected);
  });

  it.each([
    'https://evil.example/x',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/\tevil',
    ' //evil.example',
    'dashboard',
    '',
    null,
    undefined,
  ])('refuses %j', (input) => {
    expect(safeRedirectPath(input, '/dashboard')).toBe('/dashboard');
  });
});

describe('afterSignupPath', () => {
  it('sends organisations to create a site and customers to their dashboard (spec §2)', () => {
    expect(afterSignupPath('organization', undefined)).toBe('/dashboard/sites/create');
    expect(afterSignupPath('customer', null)).toBe('/dashboard');
    expect(afterSignupPath('customer', '/dashboard-customer/x')).toBe('/dashboard-customer/x');
    // A customer who joined an organisation lands on its customer dashboard.
    expect(afterSignupPath('customer', undefined, 'org-1')).toBe('/dashboard-customer/org-1');
    expect(afterSignupPath('organization', undefined, 'org-1')).toBe('/dashboard/sites/create');
    expect(afterSignupPath('organization', 'https://evil.example')).toBe('/dashboard/sites/create');
  });
});
