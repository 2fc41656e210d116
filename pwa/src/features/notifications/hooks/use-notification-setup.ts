import { useCallback, useEffect, useState } from 'react';
import type { NotificationConfig } from '@platform/schema/notifications/notifications.zod';
import { getNotificationConfig } from '../api/get-notification-config.ts';
import { deviceId } from '../device-id.ts';
import { enableNotifications, type EnableOutcome } from '../enable-notifications.ts';
import { setupStateOf, type SetupState } from '../notification-state.ts';
import { pushSupported } from '../push-token.ts';

const currentPermission = (): NotificationPermission =>
  pushSupported() ? Notification.permission : 'default';

/**
 * Where this device stands for `userId`'s notifications, and the click handler that turns
 * them on. `active: false` asks the server nothing until it becomes true.
 */
export function useNotificationSetup(
  userId: string,
  { active = true }: { active?: boolean } = {},
): { state: SetupState; turnOn: () => Promise<EnableOutcome> } {
  const [config, setConfig] = useState<NotificationConfig | null>(null);
  const [loading, setLoading] = useState(true);
  const [registered, setRegistered] = useState(false);
  const [permission, setPermission] = useState(currentPermission);
  const [phase, setPhase] = useState<'idle' | 'turning-on' | 'failed'>('idle');

  useEffect(() => {
    if (!active || !pushSupported()) return;
    const controller = new AbortController();
    getNotificationConfig(deviceId(), controller.signal)
      .then((answer) => {
        setConfig(answer);
        setRegistered(answer.deviceRegistered);
      })
      // Unknown (offline, say): the button still offers itself; the click asks again.
      .catch(() => undefined)
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [active, userId]);

  const turnOn = useCallback(async () => {
    setPhase('turning-on');
    const outcome = await enableNotifications(userId, config);
    setPermission(currentPermission());
    if (outcome === 'on') setRegistered(true);
    if (outcome === 'unavailable')
      setConfig((known) => known ?? { kind: 'none', deviceRegistered: false });
    setPhase(outcome === 'failed' ? 'failed' : 'idle');
    return outcome;
  }, [userId, config]);

  const state = setupStateOf({
    supported: pushSupported(),
    permission,
    configKind: config?.kind ?? null,
    loading: active && loading,
    registered,
    phase,
  });
  return { state, turnOn };
}
