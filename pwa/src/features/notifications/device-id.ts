const DEVICE_ID_KEY = 'notification-device-id';
const enabledKey = (userId: string) => `notifications-enabled:${userId}`;
const lastTokenKey = (userId: string) => `notification-token:${userId}`;
let fallbackDeviceId: string | null = null;

/** A random id this browser keeps: the server holds one registration per user and device. */
export function deviceId(): string {
  try {
    let id = localStorage.getItem(DEVICE_ID_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(DEVICE_ID_KEY, id);
    }
    return id;
  } catch {
    // No storage (some private modes): one id for this page at least.
    fallbackDeviceId ??= crypto.randomUUID();
    return fallbackDeviceId;
  }
}

/** That this person turned notifications on here, so later visits keep the registration fresh. */
export function rememberEnabled(userId: string, token: string): void {
  try {
    localStorage.setItem(enabledKey(userId), new Date().toISOString());
    localStorage.setItem(lastTokenKey(userId), token);
  } catch {
    // Nowhere to remember it: the registration simply is not refreshed on later visits.
  }
}

export function enabledHere(userId: string): { enabled: boolean; lastToken: string | null } {
  try {
    return {
      enabled: localStorage.getItem(enabledKey(userId)) !== null,
      lastToken: localStorage.getItem(lastTokenKey(userId)),
    };
  } catch {
    return { enabled: false, lastToken: null };
  }
}
