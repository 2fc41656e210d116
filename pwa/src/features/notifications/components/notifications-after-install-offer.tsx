import { useEffect, useState } from 'react';
import { notificationMessages as m } from '@platform/schema/notifications/notifications.messages';
import { useNotificationSetup } from '../hooks/use-notification-setup.ts';
import { NotificationSetupControl } from './notification-setup-control.tsx';
import '../notifications.css';

/** Offers 'Turn on notifications' right after the app was installed (the `appinstalled` event). */
export function NotificationsAfterInstallOffer({ userId }: { userId: string }) {
  const [installed, setInstalled] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const { state, turnOn } = useNotificationSetup(userId, { active: installed });

  useEffect(() => {
    const onInstalled = () => setInstalled(true);
    window.addEventListener('appinstalled', onInstalled);
    return () => window.removeEventListener('appinstalled', onInstalled);
  }, []);

  const offered = state === 'off' || state === 'turning-on' || state === 'failed';
  if (!installed || dismissed || !offered) return null;
  return (
    <section className="install-banner" aria-label={m.turnOn}>
      <p>{m.afterInstallOffer}</p>
      <div className="button-row">
        <NotificationSetupControl state={state} onTurnOn={() => void turnOn()} />
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setDismissed(true)}
        >
          {m.notNow}
        </button>
      </div>
    </section>
  );
}
