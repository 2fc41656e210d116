import { useEffect } from 'react';
import { refreshNotificationRegistration } from '../enable-notifications.ts';

/**
 * Renders nothing. For signed-in layouts: where the person turned notifications on before,
 * re-sends this device's current token when it changed or the server no longer counts it.
 */
export function KeepNotificationsRegistered({ userId }: { userId: string }) {
  useEffect(() => {
    void refreshNotificationRegistration(userId);
  }, [userId]);
  return null;
}
