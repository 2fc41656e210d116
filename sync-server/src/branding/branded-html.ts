import type { PublicBranding } from '@platform/schema/branding/branding.zod';
import { brandedOrgIdOf as brandedOrgIdFromPath } from '@platform/schema/branding/branded-path.rules';
import { escapeHtml } from '../web/escape-html.ts';
import { requestUrlOf } from '../web/request-url.ts';

/** The organisation of a request's page, if it is a branded one (the shared rule). */
export function brandedOrgIdOf(requestUrl: string): string | null {
  const url = requestUrlOf(requestUrl);
  return brandedOrgIdFromPath(url.pathname, url.search);
}

/**
 * The app shell as an organisation's page: its manifest, theme colour, title and icon, so the
 * first visit (before any script runs) is already installable as that organisation's app.
 */
export function brandHtml(html: string, branding: PublicBranding): string {
  const attr = (value: string) => escapeHtml(value);
  // Replacement functions, not strings: a name with `$&` or `$'` must come out as written.
  let out = html
    .replace(
      /<link rel="manifest" href="[^"]*"\s*\/?>/,
      () => `<link rel="manifest" href="${attr(branding.manifestUrl)}" />`,
    )
    .replace(
      /<meta name="theme-color" content="[^"]*"\s*\/?>/,
      () => `<meta name="theme-color" content="${attr(branding.themeColor)}" />`,
    )
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(branding.appName)}</title>`);
  if (branding.logoUrl) {
    out = out.replace(
      /<link rel="(icon|apple-touch-icon)" href="[^"]*"/g,
      (_whole, rel: string) => `<link rel="${rel}" href="${attr(branding.logoUrl ?? '')}"`,
    );
  }
  return out;
}
