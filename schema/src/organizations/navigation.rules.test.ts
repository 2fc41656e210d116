import { describe, expect, it } from 'vitest';
import { claims } from './claims.ts';
import { customerNavigation, visibleNavigation } from './navigation.rules.ts';

const labels = (nav: ReturnType<typeof visibleNavigation>) => [
  ...nav.top.map((i) => i.label),
  ...nav.groups.flatMap((g) => [g.label, ...g.items.map((i) => i.label)]),
];

describe('visibleNavigation (spec §6)', () => {
  it('shows every group to someone holding every claim', () => {
    const nav = visibleNavigation(claims, 'zipper');
    expect(nav.groups.map((g) => g.label)).toEqual(['Audiences', 'Goods & Services', 'Content Management', 'Marketing']);
    expect(labels(nav)).toEqual(expect.arrayContaining(['Time Tracking', 'Organization', 'Customers', 'Point of Sale']));
  });

  it('shows only what a claim allows', () => {
    const nav = visibleNavigation(['manage-own-time-tracking'], 'zipper');
    expect(labels(nav)).toEqual(['Time Tracking']);
    expect(labels(visibleNavigation(['manage-org-branding'], 'zipper'))).toEqual(['Organization']);
    expect(labels(visibleNavigation([], 'zipper'))).toEqual([]);
  });

  it('hides Audiences, Point of Sale, Products and Schedule on Jobber', () => {
    const shown = labels(visibleNavigation(claims, 'jobber'));
    for (const hidden of ['Audiences', 'Customers', 'Point of Sale', 'Products', 'Schedule']) expect(shown).not.toContain(hidden);
    expect(shown).toContain('Forms');
  });
});

describe('customerNavigation', () => {
  it('lists the customer view of spec §6 under the branded prefix', () => {
    const nav = customerNavigation('org-1');
    expect(nav.map((i) => i.label)).toEqual(['Dashboard', 'My calendar', 'Shop', 'Purchase history', 'Settings']);
    expect(nav[2]?.path).toBe('/dashboard-customer/org-1/shop');
  });
});
