const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const customerAppPath = new RegExp(`^/dashboard-customer/(${uuid})(?:/|$)`, 'i');
const uuidOnly = new RegExp(`^${uuid}$`, 'i');

/**
 * The organisation whose branded experience a page belongs to (spec §3 Branded app context):
 * pages under /dashboard-customer/{orgId}, and sign-in pages and documents carrying ?orgId=. The server
 * brands the app shell by it, and the app its header, colours and install offer.
 */
export function brandedOrgIdOf(pathname: string, search: string): string | null {
  const inPath = customerAppPath.exec(pathname)?.[1];
  if (inPath) return inPath.toLowerCase();
  const inQuery = new URLSearchParams(search).get('orgId');
  const carriesBrand = pathname.startsWith('/auth/') || pathname.startsWith('/documents/');
  if (carriesBrand && inQuery && uuidOnly.test(inQuery)) {
    return inQuery.toLowerCase();
  }
  return null;
}

export { readableWithWhiteText } from './contrast.rules.ts';
