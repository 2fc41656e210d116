import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { NotificationConfig } from '@platform/schema/notifications/notifications.zod';
import { getNotificationConfig } from '../api/get-notification-config.ts';
import { deviceId } from '../device-id.ts';
import { enableNotifications, type EnableOutcome } from '../enable-notifications.ts';
import { setupStateOf, type SetupState } from '../notification-state.ts';
import { pushSupported } from '../push-token.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

const configKey = (userId: string) => ['notification-config', userId, deviceId()] as const;

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
  const queryClient = useQueryClient();
  // Server state for this person on this device. Unknown (offline, say): the button still
  // offers itself; the click asks again.
  const query = useQuery({
    queryKey: configKey(userId),
    queryFn: ({ signal }) => getNotificationConfig(deviceId(), signal),
    enabled: active && pushSupported(),
    retry: retryUnlessOffline,
  });
  const config = query.data ?? null;
  const [registeredHere, setRegisteredHere] = useState(false);
  const registered = registeredHere || (config?.deviceRegistered ?? false);
  const [permission, setPermission] = useState(currentPermission);
  const [phase, setPhase] = useState<'idle' | 'turning-on' | 'failed'>('idle');

  const turnOn = useCallback(async () => {
    setPhase('turning-on');
    const outcome = await enableNotifications(userId, config);
    setPermission(currentPermission());
    if (outcome === 'on') setRegisteredHere(true);
    if (outcome === 'unavailable')
      queryClient.setQueryData<NotificationConfig>(
        configKey(userId),
        (known) => known ?? { kind: 'none', deviceRegistered: false },
      );
    setPhase(outcome === 'failed' ? 'failed' : 'idle');
    return outcome;
  }, [userId, config, queryClient]);

  const state = setupStateOf({
    supported: pushSupported(),
    permission,
    configKind: config?.kind ?? null,
    loading: active && query.isPending,
    registered,
    phase,
  });
  return { state, turnOn };
}
