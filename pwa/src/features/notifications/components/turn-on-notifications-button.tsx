import { useNotificationSetup } from '../hooks/use-notification-setup.ts';
import { NotificationSetupControl } from './notification-setup-control.tsx';
import '../notifications.css';

type Props = {
  /** The signed-in person: this device receives their notices. */
  userId: string;
};

/**
 * 'Turn on notifications' (spec §4 Notification permission). Shows 'Notifications are on'
 * once this device receives the person's notices, and says why when the browser blocks them.
 */
export function TurnOnNotificationsButton({ userId }: Props) {
  const { state, turnOn } = useNotificationSetup(userId);
  return (
    <div className="notification-setup">
      <NotificationSetupControl state={state} onTurnOn={() => void turnOn()} />
    </div>
  );
}
