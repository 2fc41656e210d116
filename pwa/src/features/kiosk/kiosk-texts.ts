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

/** Class check-in at the kiosk (issue 16): what the screen says. */
export const checkInTexts = {
  tab: 'Class check-in',
  clockTab: 'Time clock',
  heading: 'Class check-in',
  loadingClasses: 'Loading today’s classes…',
  noClasses: 'No classes today',
  nobodyBooked: 'Nobody is booked for this class yet',
  checkIn: 'Check in',
  checkedIn: 'Checked in',
  undo: 'Undo',
  notSent: 'Not sent yet',
  couldNotSave: 'The check-in could not be saved on this device. Try again.',
} as const;

/** 'Pat Parent is checked in.' — the toast once the server took a check-in. */
export const checkedInText = (name: string) => `${name} is checked in.`;

/** The toast when the server refused a check-in: whose, and why. */
export const checkInRefusedText = (name: string, reason: string) =>
  `${name} could not be checked in. ${reason}`;

/** '3 of 12 checked in' — a class's line in the list. */
export const checkedInCountText = (checkedIn: number, booked: number) =>
  `${checkedIn} of ${booked} checked in`;

/** Under a class picked before its check-in opens, or after it closed. */
export const checkInOpensText = (time: string) =>
  `Check-in opens at ${time.replace(/\s/g, '\u00a0')}.`;
export const checkInClosedText = 'Check-in for this class has closed.';
