import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterSignupPath, safeRedirectPath } from './redirect.rules.ts';

const APP = 'https://app.example';

describe('safeRedirectPath', () => {
  it.each([
    ['/dashboard/crm', '/dashboard/crm'],
    ['/dashboard-customer/abc/shop?x=1#top', '/dashboard-customer/abc/shop?x=1#top'],
    // Dot segments are resolved, as the browser would.
    ['/dashboard/../dashboard/crm', '/dashboard/crm'],
    ['/a/%2e%2e/dashboard', '/dashboard'],
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
    // Dot segments that collapse into a protocol-relative //host once the URL is normalised.
    '/..//evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2e//evil.example/x?y#z',
    '/%2e//evil.example',
    '/a/b/../..//evil.example',
    '/..//\\evil.example',
    'dashboard',
    '',
    null,
    undefined,
  ])('refuses %j', (input) => {
    expect(safeRedirectPath(input, '/dashboard')).toBe('/dashboard');
  });
});

describe('safeRedirectPath, for any input', () => {
  // Strings built from the characters that matter to URL parsing, so the generator reaches the
  // interesting cases (dot segments, doubled slashes, encodings, schemes) often.
  const urlish = fc
    .array(
      fc.oneof(
        fc.constantFrom('/', '//', '\\', '.', '..', '%2e', '%2E', '%2f', '%5c', ':', '@', '?', '#', ' ', '\t', '\n'),
        fc.constantFrom('evil.example', 'app.example', 'javascript', 'http', 'https', 'dashboard', 'a'),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  const anyTarget = fc.oneof(urlish, fc.string(), fc.webUrl(), fc.webPath());

  it('never yields a target that leaves the app', () => {
    fc.assert(
      fc.property(anyTarget, (input) => {
        const output = safeRedirectPath(input, '/dashboard');
        expect(output.startsWith('/')).toBe(true);
        const followed = new URL(output, APP);
        expect(followed.origin).toBe(APP);
        // What the browser opens is exactly the path that was checked.
        expect(followed.pathname + followed.search + followed.hash).toBe(output);
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same answer when asked again (its output is already safe)', () => {
    fc.assert(
      fc.property(anyTarget, (input) => {
        const once = safeRedirectPath(input, '/dashboard');
        expect(safeRedirectPath(once, '/fallback')).toBe(once);
      }),
      { numRuns: 2000 },
    );
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
