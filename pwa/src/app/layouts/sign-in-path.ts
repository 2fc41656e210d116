import { brandedOrgIdOf } from '@platform/schema/branding/branded-path.rules';
import { signedInHereBefore } from '../../lib/current-user.ts';

/**
 * Where a signed-out visitor goes: the sign-in, coming back here after. A branded app (the link
 * an organisation shares) keeps its brand and the customer flow: its signup on a device nobody
 * signed in on yet — a family following the gym's link is most likely new — else its sign-in.
 */
export function signInPathFor(pathname: string, search: string): string {
  const query = new URLSearchParams({ redirectTo: `${pathname}${search}` });
  const orgId = brandedOrgIdOf(pathname, search);
  if (!orgId) return `/auth/login?${query}`;
  query.set('orgId', orgId);
  query.set('preventOrgFields', 'true');
  return `${signedInHereBefore() ? '/auth/login' : '/auth/signup'}?${query}`;
}
