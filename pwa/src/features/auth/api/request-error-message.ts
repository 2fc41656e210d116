import { loginMessages, offlineMessage } from '@platform/schema/auth/auth.messages';
import { ApiError, NetworkError } from '../../../lib/api.ts';

/** What to tell the person when a request failed for a reason the form cannot fix. */
export function requestErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return offlineMessage;
  if (error instanceof ApiError && error.status === 429) {
    // A rate limit's own message says how long to wait.
    const body = error.body;
    const said =
      typeof body === 'object' && body !== null && 'message' in body ? body.message : null;
    return typeof said === 'string' ? said : loginMessages.tooManyAttempts;
  }
  return loginMessages.unexpected;
}
