// Any origin of ours would do: only whether a path stays on it matters.
const APP_ORIGIN = 'https://same-origin.invalid';

/** The path, query and hash a browser would open for `path`, if it stays on our origin. */
function resolveInApp(path: string): string | null {
  try {
    const url = new URL(path, APP_ORIGIN);
    return url.origin === APP_ORIGIN ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

/**
 * Only same-origin paths are honoured as redirect targets (no open redirect). The target is
 * normalised as a browser would (dot segments, %2e), and then the normalised path is checked
 * again: `/..//evil.example` normalises to `//evil.example`, which a browser opens as another
 * host. Checking the string's prefix alone let exactly that through.
 */
export function safeRedirectPath(target: string | null | undefined, fallback: string): string {
  if (!target) return fallback;
  const value = target.trim();
  if (!value.startsWith('/')) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  const normalised = resolveInApp(value);
  if (normalised === null) return fallback;
  // What the browser will do with the normalised path: it must open that very path here.
  return resolveInApp(normalised) === normalised ? normalised : fallback;
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
