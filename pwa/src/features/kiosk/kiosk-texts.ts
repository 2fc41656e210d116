/** HH:MM on a 24-hour clock, in the organisation's zone (else the device's). */
export function formatKioskTime(iso: string, timeZone: string | null): string {
  return new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** '1 action waiting to be sent' — what the kiosk says about its unsent clock moves. */
export function pendingText(count: number): string {
  if (count === 0) return 'All actions sent';
  return `${count} ${count === 1 ? 'action' : 'actions'} waiting to be sent`;
}

/** Where a person sets their kiosk PIN: their own settings, the Kiosk PIN section. */
export const KIOSK_PIN_SECTION_ID = 'kiosk-pin';
export const KIOSK_PIN_SETTINGS_PATH = `/dashboard/settings#${KIOSK_PIN_SECTION_ID}`;
