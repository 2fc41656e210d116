import { settingsMessages } from '@platform/schema/settings/settings.messages';
import { ApiError, NetworkError } from '../../lib/api.ts';

/** What to say when a settings request failed for a reason the form cannot fix. */
export function settingsFailure(error: unknown): string {
  if (error instanceof NetworkError) return settingsMessages.offline;
  if (error instanceof ApiError && error.status === 429) return error.message;
  return settingsMessages.failed;
}
