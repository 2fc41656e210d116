import { describe, expect, it } from 'vitest';
import {
  canContinue,
  chargeFlowMessages,
  chargesStartupFee,
  latestStartDate,
  punchCardToggle,
  startDateRefusal,
  startDateWindowDays,
} from './charge-flow.rules.ts';

describe('the charge flow rules (spec §5)', () => {
  it('has the start-date windows of spec §9', () => {
    expect(Object.values(startDateWindowDays)).toEqual([6, 13, 30, 92, 183, 365, 0]);
    expect(startDateWindowDays.quarter).toBe(Math.ceil(365 / 4));
    expect(startDateWindowDays['bi-yearly']).toBe(Math.ceil(365 / 2));
  });

  it('allows a delayed start from tomorrow to the end of the window', () => {
    const today = '2026-11-24';
    expect(startDateRefusal(null, 'month', today)).toBeNull();
    expect(startDateRefusal('', 'month', today)).toBeNull();
    expect(startDateRefusal('2026-11-25', 'month', today)).toBeNull();
    expect(startDateRefusal('2026-12-24', 'month', today)).toBeNull();
    expect(startDateRefusal('2026-12-25', 'month', today)).toBe(
      chargeFlowMessages.startTooLate(30),
    );
    expect(startDateRefusal('2026-11-24', 'week', today)).toBe(chargeFlowMessages.startTooEarly);
    expect(startDateRefusal('2026-11-01', 'year', today)).toBe(chargeFlowMessages.startTooEarly);
    expect(startDateRefusal('2027-11-24', 'year', today)).toBeNull();
    expect(startDateRefusal('2026-11-25', 'one-time', today)).toBe(
      chargeFlowMessages.oneTimeStartsNow,
    );
    expect(startDateRefusal('24/11/2026', 'month', today)).toBe(chargeFlowMessages.invalidDate);
    expect(latestStartDate('week', today)).toBe('2026-11-30');
    expect(latestStartDate('one-time', today)).toBeNull();
  });

  it('never charges a start-up fee with a delayed start', () => {
    expect(chargesStartupFee(2_000, null)).toBe(true);
    expect(chargesStartupFee(2_000, '2026-12-01')).toBe(false);
    expect(chargesStartupFee(0, null)).toBe(false);
  });

  it('continues only with a product and a payment method', () => {
    expect(canContinue({ selectedProductId: 'p', paymentMethodId: 'pm' })).toBe(true);
    expect(canContinue({ selectedProductId: 'p', paymentMethodId: null })).toBe(false);
    expect(canContinue({ selectedProductId: null, paymentMethodId: 'pm' })).toBe(false);
  });

  it('disables punch cards for recurring products and issues them only with groups', () => {
    const groups = { groups: [{}] };
    expect(punchCardToggle({ type: 'recurring', punchCardConfiguration: groups }).disabled).toBe(
      true,
    );
    expect(
      punchCardToggle({ type: 'recurring', punchCardConfiguration: groups }).issues(true),
    ).toBe(false);
    expect(punchCardToggle({ type: 'one-time', punchCardConfiguration: groups }).issues(true)).toBe(
      true,
    );
    expect(
      punchCardToggle({ type: 'one-time', punchCardConfiguration: groups }).issues(false),
    ).toBe(false);
    expect(
      punchCardToggle({ type: 'one-time', punchCardConfiguration: { groups: [] } }).issues(true),
    ).toBe(false);
  });
});
