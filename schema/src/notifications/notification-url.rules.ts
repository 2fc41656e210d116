/**
 * Where a notification may lead: a path on our own origin. A push payload is data from
 * outside the page, so a click never opens another site (an open redirect through our app).
 */
export function isSameOriginPath(url: string): boolean {
  // '//host' and '/\host' are protocol-relative URLs in browsers, not paths.
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

/** The absolute URL a notification click opens: its path on `origin`, else the app's start page. */
export function notificationTargetUrl(url: unknown, origin: string): string {
  const fallback = new URL('/', origin).href;
  if (typeof url !== 'string' || !isSameOriginPath(url)) return fallback;
  try {
    const target = new URL(url, origin);
    return target.origin === new URL(origin).origin ? target.href : fallback;
  } catch {
    return fallback;
  }
}
