import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';

/** spec §4 names the buttons (the time-tracking screen uses the same words). */
export const kioskMoveLabels = {
  'clock-in': 'Clock In',
  'start-break': 'Start Break',
  'end-break': 'Return from Break',
  'clock-out': 'Clock Out',
} as const satisfies Record<ClockAction, string>;

/** HH:MM on a 24-hour clock, in the organisation's zone (else the device's). */
export function formatKioskTime(iso: string, timeZone: string | null): string {
  return new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

export function clockStatusText(state: ClockState, timeZone: string | null): string {
  const entry = state.activeEntry;
  switch (state.status) {
    case 'none':
      return 'Not clocked in';
    case 'completed':
      return 'Clocked out';
    case 'active':
      return entry
        ? `Clocked in since ${formatKioskTime(entry.startTime, timeZone)}`
        : 'Clocked in';
    case 'on_break': {
      const started = entry?.breakIntervals.at(-1)?.startTime;
      return started ? `On break since ${formatKioskTime(started, timeZone)}` : 'On break';
    }
  }
}

/** '1 action waiting to be sent' — what the kiosk says about its unsent clock moves. */
export function pendingText(count: number): string {
  if (count === 0) return 'All actions sent';
  return `${count} ${count === 1 ? 'action' : 'actions'} waiting to be sent`;
}
