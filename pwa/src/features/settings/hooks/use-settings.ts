import { useEffect, useState } from 'react';
import type { Settings } from '@platform/schema/settings/settings.zod';
import { NetworkError } from '../../../lib/api.ts';
import { getSettings } from '../api/get-settings.ts';

export type SettingsState =
  | { status: 'loading' }
  | { status: 'ready'; settings: Settings }
  | { status: 'failed'; offline: boolean };

/** The person's settings from the server; asked again when the device comes back online. */
export function useSettings(online: boolean) {
  const [state, setState] = useState<SettingsState>({ status: 'loading' });
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    getSettings(controller.signal).then(
      (settings) => setState({ status: 'ready', settings }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', offline: error instanceof NetworkError });
      },
    );
    return () => controller.abort();
  }, [online]);
  const update = (settings: Settings) => setState({ status: 'ready', settings });
  return { state, update };
}
