import { createContext, useContext } from 'react';

/**
 * How the app presents itself (install banner, brand mark). A branded customer app (spec §3
 * Branded app context: manifest name and icons[0].src) supplies its own value through
 * BrandingContext — data only, no new components.
 */
export type Branding = {
  /** Keys remembered choices, such as a dismissed install prompt, per brand. */
  id: string;
  appName: string;
  iconSrc: string;
  installPitch: string;
  /** Shown as a 'Powered by' footer in branded apps (spec §1); null for the platform itself. */
  poweredBy: string | null;
};

export const platformBranding: Branding = {
  id: 'platform',
  appName: 'Coaching Platform',
  iconSrc: '/icons/icon-192.png',
  installPitch: 'Bookings, payments and time tracking on your home screen — even offline.',
  poweredBy: null,
};

export const BrandingContext = createContext<Branding>(platformBranding);

export function useBranding(): Branding {
  return useContext(BrandingContext);
}
