import { describe, expect, it } from 'vitest';
import { claims } from './claims.ts';
import { allNavItems, customerNavigation, visibleNavigation } from './navigation.rules.ts';

const labels = (nav: ReturnType<typeof visibleNavigation>) => [
  ...nav.top.map((i) => i.label),
  ...nav.groups.flatMap((g) => [g.label, ...g.items.map((i) => i.label)]),
];

describe('visibleNavigation (spec §6, issue 14)', () => {
  const soon = (nav: ReturnType<typeof visibleNavigation>) => nav.comingSoon.map((i) => i.label);

  it('links only built screens; the rest a claim allows are named once under Coming soon', () => {
    const nav = visibleNavigation(claims, 'zipper');
    expect(labels(nav)).toEqual([
      'Time Tracking',
      'Organization',
      'Audiences',
      'Customers',
      'Goods & Services',
      'Point of Sale',
      'Products',
      'Schedule',
    ]);
    expect(soon(nav)).toEqual(expect.arrayContaining(['Leads', 'Reviews']));
    expect(soon(nav)).not.toContain('Schedule');
    expect(soon(nav)).not.toContain('Products');
    expect(soon(nav)).not.toContain('Point of Sale');
    expect(soon(nav)).not.toContain('Customers');
    // Every entry appears exactly once, as a link or as coming soon.
    const all = [...nav.top, ...nav.groups.flatMap((g) => g.items), ...nav.comingSoon].map(
      (i) => i.path,
    );
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(allNavItems.length);
  });

  it('shows only what a claim allows', () => {
    const nav = visibleNavigation(['manage-own-time-tracking'], 'zipper');
    expect(labels(nav)).toEqual(['Time Tracking']);
    expect(soon(nav)).toEqual([]);
    expect(labels(visibleNavigation(['manage-org-branding'], 'zipper'))).toEqual(['Organization']);
    expect(soon(visibleNavigation(['manage-forms'], 'zipper'))).toEqual(['Forms']);
    expect(labels(visibleNavigation([], 'zipper'))).toEqual([]);
  });

  it('hides Audiences, Point of Sale, Products and Schedule on Jobber', () => {
    const nav = visibleNavigation(claims, 'jobber');
    const shown = [...labels(nav), ...soon(nav)];
    for (const hidden of [
      'Audiences',
      'Customers',
      'Leads',
      'Point of Sale',
      'Products',
      'Schedule',
    ])
      expect(shown).not.toContain(hidden);
    expect(soon(nav)).toContain('Forms');
  });
});

describe('customerNavigation', () => {
  it('lists the customer view of spec §6 under the branded prefix', () => {
    const nav = customerNavigation('org-1');
    expect(nav.map((i) => i.label)).toEqual([
      'Dashboard',
      'My calendar',
      'Shop',
      'Purchase history',
      'Settings',
    ]);
    expect(nav[2]?.path).toBe('/dashboard-customer/org-1/shop');
  });
});
