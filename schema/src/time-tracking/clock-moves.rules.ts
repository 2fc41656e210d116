import { applyClockAction, type ClockAction, type ClockState } from './time-clock.rules.ts';

/** spec §4 names the buttons; the time-tracking page and the kiosk both use these words. */
export const clockMoveLabels = {
  'clock-in': 'Clock In',
  'start-break': 'Start Break',
  'end-break': 'Return from Break',
  'clock-out': 'Clock Out',
} as const satisfies Record<ClockAction, string>;

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

/**
 * The moves a person is offered from `state`, in spec §4 order: Clock In when out, Start Break
 * or Clock Out when active, and only Return from Break while on a break (spec §4: "On break,
 * Return from Break gives active"). The state machine itself still accepts a clock-out during a
 * break, so entries from offline devices converge (time-clock.rules.ts).
 */
export function offeredClockMoves(state: ClockState): ClockAction[] {
  if (state.status === 'on_break') return ['end-break'];
  return buttonOrder.filter((action) => applyClockAction(state, action, whenever, anyone).ok);
}

/** spec §3 current status in words; `time` formats an instant in the organisation's way. */
export function clockStatusText(state: ClockState, time: (iso: string) => string): string {
  const entry = state.activeEntry;
  switch (state.status) {
    case 'none':
      return 'Not clocked in';
    case 'completed':
      return 'Clocked out';
    case 'active':
      return entry ? `Clocked in since ${time(entry.startTime)}` : 'Clocked in';
    case 'on_break': {
      const started = entry?.breakIntervals.at(-1)?.startTime;
      return started ? `On break since ${time(started)}` : 'On break';
    }
  }
}
