import { settingsSchema, type Settings } from '@platform/schema/settings/settings.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/settings, action get-settings: the signed-in person's own settings. */
export function getSettings(signal?: AbortSignal): Promise<Settings> {
  return api('/api/settings', {
    json: { action: 'get-settings' },
    schema: settingsSchema,
    ...(signal ? { signal } : {}),
  });
}
