import { bookingMessages } from '../bookings/booking.rules.ts';

// Kiosk mode's own texts (the spec names only the route and the clock toasts of §8, which are
// reused from time-tracking.messages.ts). Both sides use these; tests assert them exactly.
export const kioskMessages = {
  pinFormat: 'A PIN is 4 to 8 digits.',
  pinsDiffer: 'The PINs do not match.',
  pinSaved: 'Your kiosk PIN is saved.',
  pinRemoved: 'Your kiosk PIN is removed.',
  noPin: 'You have no kiosk PIN yet. Set one in your settings.',
  notAtThisKiosk: 'This person does not clock in at this kiosk.',
  startNotAllowed: 'You do not have permission to start kiosk mode for this organization.',
  startNeedsPassword:
    'Kiosk mode needs a password to leave it. Set a password for your account first.',
  wrongPassword: 'That password is not right.',
  clockMovesOnly: 'A kiosk can only clock in, take breaks and clock out.',
  kioskEnded: 'Kiosk mode has ended on this device.',
  leaveNeedsConnection: 'Leaving kiosk mode needs a connection.',
  leaveWithPending:
    'Some clock actions are still waiting to be sent. Leave kiosk mode once they are sent.',
  // Class check-in at the kiosk (issue 16): schema/src/kiosk/kiosk-check-in.rules.ts.
  checkInsOnly:
    'A kiosk can only check in people booked for a class, or undo a check-in it just made.',
  checkInClosed:
    'Check-in for this class opens an hour before it starts and closes 12 hours after it ends.',
  // The same words a booking of a cancelled class gets, on purpose: one fact, one sentence.
  checkInClassCancelled: bookingMessages.classCancelled,
  undoTooLate:
    'A check-in can be undone at the kiosk only within 10 minutes. Ask a staff member to change it.',
} as const;

/** 'That PIN is not right. 3 tries left.' — the count helps a person who mistyped. */
export function wrongPinMessage(triesLeft: number): string {
  if (triesLeft <= 0) return 'That PIN is not right.';
  return `That PIN is not right. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`;
}

/** 'Too many wrong PINs. Try again in 15 minutes.' */
export function pinLockedMessage(remainingMs: number): string {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return `Too many wrong PINs. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
