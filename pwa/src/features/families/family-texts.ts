import { ApiError, NetworkError } from '../../lib/api.ts';

// The family modals' own texts; the spec's are in schema/src/families/families.messages.ts.
export const familyTexts = {
  offline: 'You are offline. Managing family accounts needs a connection.',
  loadFailed: 'We could not load this list. Please try again.',
  removeFailed: 'We could not remove this link. Please try again.',
  guardianAdded: 'Parent/guardian added.',
  childrenCreated: (count: number) =>
    `${count === 1 ? 'The child account was' : `${count} child accounts were`} created.`,
  disconnected: 'Child account disconnected.',
  sendPasswordEmail: 'Send an email to set their password',
} as const;

/** A request that failed for a reason the form cannot fix: offline, a rate limit, or the given text. */
export function failureText(error: unknown, otherwise: string): string {
  if (error instanceof NetworkError) return familyTexts.offline;
  // A rate limit's own message says how long to wait; 'please try again' would not.
  if (error instanceof ApiError && error.status === 429) return error.message;
  return otherwise;
}
