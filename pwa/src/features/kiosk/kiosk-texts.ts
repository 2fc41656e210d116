/** '1 action waiting to be sent' — what the kiosk says about its unsent clock moves. */
export function pendingText(count: number): string {
  if (count === 0) return 'All actions sent';
  return `${count} ${count === 1 ? 'action' : 'actions'} waiting to be sent`;
}
