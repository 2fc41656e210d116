/**
 * Only same-origin paths are honoured as redirect targets (no open redirect): a single
 * leading slash, no scheme, no protocol-relative `//host`, no backslash tricks.
 */
export function safeRedirectPath(target: string | null | undefined, fallback: string): string {
  if (!target) return fallback;
  const value = target.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const parsed = new URL(value, 'http://same-origin.invalid');
    if (parsed.origin !== 'http://same-origin.invalid') return fallback;
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return fallback;
  }
}

/** spec §2: after signup, organisations create a site and customers go to their dashboard. */
export function afterSignupPath(
  kind: 'organization' | 'customer',
  redirectTo: string | null | undefined,
  /** The organisation a customer joined (branded app, invitation): its customer dashboard. */
  orgId?: string | null,
): string {
  const home =
    kind === 'organization'
      ? '/dashboard/sites/create'
      : orgId
        ? `/dashboard-customer/${orgId}`
        : '/dashboard';
  return safeRedirectPath(redirectTo, home);
}
