const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const customerAppPath = new RegExp(`^/dashboard-customer/(${uuid})(?:/|$)`, 'i');
const uuidOnly = new RegExp(`^${uuid}$`, 'i');

/**
 * The organisation whose branded experience a page belongs to (spec §3 Branded app context):
 * pages under /dashboard-customer/{orgId}, and sign-in pages carrying ?orgId=. The server
 * brands the app shell by it, and the app its header, colours and install offer.
 */
export function brandedOrgIdOf(pathname: string, search: string): string | null {
  const inPath = customerAppPath.exec(pathname)?.[1];
  if (inPath) return inPath.toLowerCase();
  const inQuery = new URLSearchParams(search).get('orgId');
  if (pathname.startsWith('/auth/') && inQuery && uuidOnly.test(inQuery)) {
    return inQuery.toLowerCase();
  }
  return null;
}

/** White text on this colour reads at WCAG AA (4.5:1) — else the app keeps its own accent. */
export function readableWithWhiteText(hex: string): boolean {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return false;
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= 4.5;
}
