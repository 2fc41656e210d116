import { createContext, useContext } from 'react';
import {
  brandingPaths,
  type OrgBrandingDoc,
  type PublicBranding,
} from '@platform/schema/branding/branding.zod';

/**
 * How the app presents itself (header, install banner, colours). The platform has its own; an
 * organisation's branded customer app (spec §3 Branded app context: manifest name and
 * icons[0].src) supplies its own value through BrandingContext — data only, no new components.
 */
export type Branding = {
  /** Keys remembered choices, such as a dismissed install prompt, per brand. */
  id: string;
  /** The organisation whose app this is; null for the platform itself. */
  orgId: string | null;
  appName: string;
  /** The home-screen icon (the organisation's logo when it has one). */
  iconSrc: string;
  /** The uploaded logo, for headers; null when there is none. */
  logoSrc: string | null;
  themeColor: string;
  manifestUrl: string;
  /** Where the brand mark leads. */
  homePath: string;
  installPitch: string;
  /** Shown as a 'Powered by' footer in branded apps (spec §1); null for the platform itself. */
  poweredBy: string | null;
};

export const platformBranding: Branding = {
  id: 'platform',
  orgId: null,
  appName: 'Coaching Platform',
  iconSrc: '/icons/icon-192.png',
  logoSrc: null,
  themeColor: '#0f766e',
  manifestUrl: '/manifest.webmanifest',
  homePath: '/dashboard',
  installPitch: 'Opens from your home screen, even offline.',
  poweredBy: null,
};

/** An organisation's branding, from its public answer or its replicated document. */
export function organizationBranding(source: PublicBranding | OrgBrandingDoc): Branding {
  const orgId = source.orgId;
  return {
    id: `org:${orgId}`,
    orgId,
    appName: source.appName,
    iconSrc: source.logoUrl ?? platformBranding.iconSrc,
    logoSrc: source.logoUrl,
    themeColor: source.themeColor,
    manifestUrl: brandingPaths.manifest(orgId),
    homePath: brandingPaths.customerApp(orgId),
    installPitch: 'Book and pay from your home screen, even offline.',
    poweredBy: platformBranding.appName,
  };
}

export const BrandingContext = createContext<Branding>(platformBranding);

export function useBranding(): Branding {
  return useContext(BrandingContext);
}

/**
 * False while a branded page's own branding is still on its way: what names the brand (the
 * install offer) waits rather than showing the platform's name for a moment.
 */
export const BrandingSettledContext = createContext(true);

export function useBrandingSettled(): boolean {
  return useContext(BrandingSettledContext);
}
