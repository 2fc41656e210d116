import { readableWithWhiteText } from '@platform/schema/branding/branded-path.rules';
import type { Branding } from '../../lib/branding.ts';

function setHeadLink(rel: string, href: string) {
  let link = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (!link) {
    link = document.createElement('link');
    link.rel = rel;
    document.head.append(link);
  }
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/**
 * Points the document at the brand's manifest, icon and theme colour. The service worker serves
 * one app shell for every page, so after the first visit the server's branded shell is not
 * what runs — the page must say whose app it is itself. The brand colour becomes the accent
 * only where white text stays readable on it.
 */
export function applyBrandingToDocument(branding: Branding): void {
  setHeadLink('manifest', branding.manifestUrl);
  setHeadLink('icon', branding.iconSrc);
  setHeadLink('apple-touch-icon', branding.iconSrc);
  const themeMeta = document.head.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (themeMeta) themeMeta.content = branding.themeColor;
  const root = document.documentElement.style;
  if (branding.orgId && readableWithWhiteText(branding.themeColor)) {
    root.setProperty('--color-primary', branding.themeColor);
    root.setProperty(
      '--color-primary-dark',
      `color-mix(in srgb, ${branding.themeColor} 80%, black)`,
    );
  } else {
    root.removeProperty('--color-primary');
    root.removeProperty('--color-primary-dark');
  }
  document.title = branding.appName;
}
