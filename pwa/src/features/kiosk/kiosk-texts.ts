import type { ClockAction, ClockStatus } from '@platform/schema/time-tracking/time-clock.rules';

/** '1 action waiting to be sent' — what the kiosk says about its unsent clock moves. */
export function pendingText(count: number): string {
  if (count === 0) return 'All actions sent';
  return `${count} ${count === 1 ? 'action' : 'actions'} waiting to be sent`;
}

/** Where a person sets their kiosk PIN: their own settings, the Kiosk PIN section. */
export const KIOSK_PIN_SECTION_ID = 'kiosk-pin';
export const KIOSK_PIN_SETTINGS_PATH = `/dashboard/settings#${KIOSK_PIN_SECTION_ID}`;
const movesDone = {
  'clock-in': 'clocked in',
  'start-break': 'started a break',
  'end-break': 'back from break',
  'clock-out': 'clocked out',
} as const satisfies Record<ClockAction, string>;

/** 'Sam Staff — clocked in 3:31 PM': the full-screen confirmation after a move (issue 14). */
export function moveConfirmationText(name: string, action: ClockAction, time: string): string {
  // Big letters wrap: never between '3:31' and 'PM'.
  return `${name} — ${movesDone[action]} ${time.replace(/\s/g, '\u00a0')}`;
}

/** A name tile's word for the person's clock: in, on break or out. */
export function tileStatusText(status: ClockStatus): string {
  switch (status) {
    case 'active':
      return 'In';
    case 'on_break':
      return 'On break';
    case 'none':
    case 'completed':
      return 'Out';
  }
}
