import {
  applyClockAction,
  type ClockAction,
  type ClockState,
} from '@platform/schema/time-tracking/time-clock.rules';

/** spec §4 names the buttons. */
export const clockActionLabels = {
  'clock-in': 'Clock In',
  'start-break': 'Start Break',
  'end-break': 'Return from Break',
  'clock-out': 'Clock Out',
} as const satisfies Record<ClockAction, string>;

// Asked at the latest instant a Date holds, so only the state machine decides, never the
// device's clock (a clock running slightly behind the server must not hide Clock Out).
const whenever = new Date(8_640_000_000_000_000);
const anyone = {
  orgId: '00000000-0000-4000-8000-000000000000',
  userId: '00000000-0000-4000-8000-000000000000',
  newEntryId: '00000000-0000-4000-8000-000000000000',
};

/** The moves time-clock.rules allows from `state`, in the order the buttons show. */
export function allowedActions(state: ClockState): ClockAction[] {
  const order: ClockAction[] = ['clock-in', 'start-break', 'end-break', 'clock-out'];
  return order.filter((action) => applyClockAction(state, action, whenever, anyone).ok);
}
