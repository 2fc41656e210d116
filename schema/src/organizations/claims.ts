// spec §6 Roles and permissions.
export const claims = [
  'manage-own-time-tracking',
  'manage-others-time-tracking',
  // Ours (issue 6): turns a device into the organisation's front-desk time clock.
  'manage-kiosk',
  'manage-org-settings',
  'manage-org-integrations',
  'manage-org-branding',
  'manage-org-staff',
  'manage-org-reports',
  'manage-sites',
  'manage-in-app-pages',
  'manage-automations',
  'view-customers',
  'manage-leads',
  'manage-point-of-sale',
  'manage-products',
  'manage-schedule',
  'manage-forms',
  'manage-cms',
  'manage-marketing-copilot',
  'manage-blog-posts',
  'manage-lead-magnets',
  'manage-emails',
  'manage-reviews',
  'manage-media-library',
] as const;
export type Claim = (typeof claims)[number];

export const timeTrackingClaims: readonly Claim[] = [
  'manage-own-time-tracking',
  'manage-others-time-tracking',
];
/** Who may turn a device into the organisation's front-desk kiosk (issue 6). */
export const kioskClaims: readonly Claim[] = ['manage-kiosk'];
export const organizationClaims: readonly Claim[] = [
  'manage-org-settings',
  'manage-org-integrations',
  'manage-org-branding',
  'manage-org-staff',
  'manage-org-reports',
];

export const platforms = ['zipper', 'jobber'] as const;
export type Platform = (typeof platforms)[number];

export function hasAnyClaim(held: readonly string[], wanted: readonly Claim[]): boolean {
  return wanted.some((claim) => held.includes(claim));
}
