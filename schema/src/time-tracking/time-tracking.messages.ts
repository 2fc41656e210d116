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

/** Ours: the rule "no overlapping entries for one person" (issue 6), on both paths and the device. */
export const timeEntryOverlapMessage =
  'This time entry overlaps another entry of the same person. Change its times or remove the other entry first.';

/** Ours (the spec names only the clock toasts): editing entries on the time-tracking page. */
export const timeEntryEditMessages = {
  created: 'Time entry added.',
  updated: 'Time entry saved.',
  deleted: 'Time entry deleted.',
  createFailed: 'Failed to add the time entry. Please try again.',
  updateFailed: 'Failed to save the time entry. Please try again.',
  deleteFailed: 'Failed to delete the time entry. Please try again.',
  exportFailed: 'Failed to export the time entries. Please try again.',
  offline: 'You are offline. Editing entries needs a connection.',
} as const;
