import { useOnlineStatus } from '../../../lib/online-status.ts';

export function OfflineIndicator() {
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div className="offline-indicator" role="status">
      Offline
    </div>
  );
}
