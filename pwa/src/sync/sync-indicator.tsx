import { useAccountSync } from './sync-context.tsx';

const labels = {
  online: 'Synced',
  syncing: 'Syncing…',
  offline: 'Offline',
  'signed-out': 'Signed out',
  standby: 'Syncing in another tab',
} as const;

/** Online / syncing / offline, with the count of local changes not yet sent (issue 4). */
export function SyncIndicator() {
  const { status, error } = useAccountSync();
  if (error)
    return (
      <span className="sync-indicator" data-state="error" role="status">
        {error}
      </span>
    );
  if (!status) return null;
  const waiting =
    status.pending > 0
      ? ` · ${status.pending} ${status.pending === 1 ? 'change' : 'changes'} waiting`
      : '';
  return (
    <span
      className="sync-indicator"
      data-state={status.state}
      role="status"
      aria-live="polite"
      title="Sync status"
    >
      {labels[status.state]}
      {waiting}
    </span>
  );
}
