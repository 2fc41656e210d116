import { describe, expect, it } from 'vitest';
import { compareOverviewRows, overviewStatusOrder } from './subscriptions-overview.zod.ts';
import { subscriptionStatuses } from './purchase-docs.zod.ts';

describe('the subscriptions overview’s order', () => {
  it('ranks every status, past due first and ended last', () => {
    expect(Object.keys(overviewStatusOrder).sort()).toEqual([...subscriptionStatuses].sort());
    const ranked = [...subscriptionStatuses].sort(
      (a, b) => overviewStatusOrder[a] - overviewStatusOrder[b],
    );
    expect(ranked[0]).toBe('past-due');
    expect(ranked.at(-1)).toBe('cancelled');
  });

  it('puts past due first, then the soonest charge, then the name', () => {
    const row = (customerName: string, status: never, nextBillingDate: string | null) => ({
      customerName,
      status,
      nextBillingDate,
    });
    const rows = [
      row('Cat', 'cancelled' as never, null),
      row('Bea', 'active' as never, null),
      row('Ann', 'active' as never, '2026-03-01'),
      row('Dan', 'active' as never, '2026-02-01'),
      row('Eve', 'cancel-at-period-end' as never, '2026-01-15'),
      row('Abe', 'active' as never, '2026-03-01'),
      row('Zed', 'past-due' as never, '2026-05-01'),
    ];
    expect(rows.sort(compareOverviewRows).map((r) => r.customerName)).toEqual([
      'Zed',
      'Dan',
      'Abe',
      'Ann',
      'Bea',
      'Eve',
      'Cat',
    ]);
  });
});
