import type { ClockAction } from './time-clock.rules.ts';

// spec §8 Time tracking: the toasts the PWA shows after each clock action, to the letter.
export const clockSuccessMessages = {
  'clock-in': 'Successfully clocked in!',
  'clock-out': 'Successfully clocked out!',
  'start-break': 'Break started!',
  'end-break': 'Break ended!',
} as const satisfies Record<ClockAction, string>;

export const clockFailureMessages = {
  'clock-in': 'Failed to clock in. Please try again.',
  'clock-out': 'Failed to clock out. Please try again.',
  'start-break': 'Failed to start break. Please try again.',
  'end-break': 'Failed to end break. Please try again.',
} as const satisfies Record<ClockAction, string>;

/** Ours (the spec is silent): a clock action taken offline and kept on the device. */
export const savedOfflineMessage = 'Saved on this device; it will sync when you are back online.';
