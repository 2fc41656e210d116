/** Runtime cache names shared by the service worker and the page (which clears them on sign-out). */
export const API_ME_CACHE = 'api-me';
export const MANIFEST_CACHE = 'app-manifest';
export const BRAND_ASSETS_CACHE = 'brand-assets';
