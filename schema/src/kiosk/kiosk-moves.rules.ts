import {
  applyClockAction,
  type ClockAction,
  type ClockState,
} from '../time-tracking/time-clock.rules.ts';

// Asked at the latest instant a Date holds, so only the state machine decides which buttons
// show, never the device's clock (the move itself is then made at the real time).
const whenever = new Date(8_640_000_000_000_000);
const anyone = {
  orgId: '00000000-0000-4000-8000-000000000000',
  userId: '00000000-0000-4000-8000-000000000000',
  newEntryId: '00000000-0000-4000-8000-000000000000',
};
/** spec §4 order: Clock In, Start Break, Return from Break, Clock Out. */
const buttonOrder: readonly ClockAction[] = ['clock-in', 'start-break', 'end-break', 'clock-out'];

/** The moves the §4 state machine allows from `state`, in the order a kiosk shows them. */
export function kioskMovesFor(state: ClockState): ClockAction[] {
  return buttonOrder.filter((action) => applyClockAction(state, action, whenever, anyone).ok);
}
