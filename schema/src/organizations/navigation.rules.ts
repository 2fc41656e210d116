import type { Claim, Platform } from './claims.ts';
import { hasAnyClaim, organizationClaims, timeTrackingClaims } from './claims.ts';

/** Sidebar of the organisation view (spec §2 Sidebar groups, §6 claims and Jobber). */
export type NavItem = {
  label: string;
  path: string;
  anyOf: readonly Claim[];
  hiddenOnJobber?: boolean;
  /** Its screen is built. The others are listed once under 'Coming soon', never as links. */
  ready?: true;
};
export type NavGroup = { label: string; items: NavItem[]; hiddenOnJobber?: boolean };

export const topItems: NavItem[] = [
  {
    label: 'Time Tracking',
    path: '/dashboard/time-tracking',
    anyOf: timeTrackingClaims,
    ready: true,
  },
  {
    label: 'Organization',
    path: '/dashboard/organization-management',
    anyOf: organizationClaims,
    ready: true,
  },
];

export const navGroups: NavGroup[] = [
  {
    label: 'Audiences',
    hiddenOnJobber: true,
    items: [
      { label: 'Customers', path: '/dashboard/crm', anyOf: ['view-customers'], ready: true },
      { label: 'Leads', path: '/dashboard/leads', anyOf: ['manage-leads'] },
    ],
  },
  {
    label: 'Goods & Services',
    items: [
      {
        label: 'Point of Sale',
        path: '/dashboard/pos',
        anyOf: ['manage-point-of-sale'],
        hiddenOnJobber: true,
        ready: true,
      },
      {
        label: 'Products',
        path: '/dashboard/packages',
        anyOf: ['manage-products'],
        hiddenOnJobber: true,
        ready: true,
      },
      {
        label: 'Schedule',
        path: '/dashboard/calendar',
        anyOf: ['manage-schedule'],
        hiddenOnJobber: true,
        ready: true,
      },
      { label: 'Forms', path: '/dashboard/forms', anyOf: ['manage-forms'] },
    ],
  },
  {
    label: 'Content Management',
    items: [
      { label: 'Sites', path: '/dashboard/sites', anyOf: ['manage-sites'] },
      { label: 'In-app pages', path: '/dashboard/in-app-pages', anyOf: ['manage-in-app-pages'] },
      { label: 'Services', path: '/dashboard/cms/service', anyOf: ['manage-cms'] },
      {
        label: 'Service categories',
        path: '/dashboard/cms/service-category',
        anyOf: ['manage-cms'],
      },
      { label: 'Success stories', path: '/dashboard/cms/success-story', anyOf: ['manage-cms'] },
      { label: 'Staff', path: '/dashboard/cms/staff', anyOf: ['manage-cms'] },
      { label: 'Blog', path: '/dashboard/blog', anyOf: ['manage-blog-posts'] },
      { label: 'Media library', path: '/dashboard/media-library', anyOf: ['manage-media-library'] },
    ],
  },
  {
    label: 'Marketing',
    items: [
      { label: 'Automations', path: '/dashboard/automations', anyOf: ['manage-automations'] },
      {
        label: 'Marketing copilot',
        path: '/dashboard/marketing-copilot',
        anyOf: ['manage-marketing-copilot'],
      },
      { label: 'Lead magnets', path: '/dashboard/lead-magnets', anyOf: ['manage-lead-magnets'] },
      { label: 'Email templates', path: '/dashboard/emails/templates', anyOf: ['manage-emails'] },
      { label: 'SMS', path: '/dashboard/sms/inbox', anyOf: ['manage-emails'] },
      { label: 'Reviews', path: '/dashboard/reviews', anyOf: ['manage-reviews'] },
    ],
  },
];

/**
 * What one person sees: items they hold a claim for, minus what the platform hides. Items
 * whose screen is built are links (top, groups); the rest they could use one day are named
 * once under 'Coming soon' (issue 14: no dead ends in the navigation).
 */
export function visibleNavigation(heldClaims: readonly string[], platform: Platform) {
  const jobber = platform === 'jobber';
  const allowed = (item: NavItem) =>
    hasAnyClaim(heldClaims, item.anyOf) && !(jobber && item.hiddenOnJobber);
  const groups = navGroups
    .filter((group) => !(jobber && group.hiddenOnJobber))
    .map((group) => ({ ...group, items: group.items.filter(allowed) }));
  return {
    top: topItems.filter((item) => allowed(item) && item.ready),
    groups: groups
      .map((group) => ({ ...group, items: group.items.filter((item) => item.ready) }))
      .filter((group) => group.items.length > 0),
    comingSoon: [...topItems.filter(allowed), ...groups.flatMap((group) => group.items)].filter(
      (item) => !item.ready,
    ),
  };
}

/** Every entry a claim could open, built or not: the routes exist for each (deep links). */
export const allNavItems: NavItem[] = [...topItems, ...navGroups.flatMap((group) => group.items)];

/** spec §6 Customer view. */
export function customerNavigation(orgId: string | null) {
  const base = orgId ? `/dashboard-customer/${orgId}` : '/dashboard-customer';
  return [
    { label: 'Dashboard', path: orgId ? base : '/dashboard' },
    { label: 'My calendar', path: `${base}/my-calendar` },
    { label: 'Shop', path: `${base}/shop` },
    { label: 'Purchase history', path: `${base}/purchase-history` },
    { label: 'Settings', path: orgId ? `${base}/settings` : '/dashboard/settings' },
  ];
}
