import { useOnlineStatus } from '../lib/online-status.ts';

/**
 * What a screen shows while a collection it reads has never reached this device. Online it is
 * on its way; offline it cannot come until the connection does, and saying "Loading…" forever
 * would be a promise the screen cannot keep.
 */
export function ReplicaLoading({ what }: { what: string }) {
  const online = useOnlineStatus();
  return online ? (
    <p className="page-loading" role="status">
      Loading {what}…
    </p>
  ) : (
    <p className="page-loading" role="status">
      {what.charAt(0).toUpperCase() + what.slice(1)} has not reached this device yet. It will as
      soon as you are online again.
    </p>
  );
}
