// The pure parts of turning notifications on: which state the controls show, and the key
// handling Web Push needs. Tested under node (notification-state.test.ts).

export type SetupState =
  'checking' | 'unsupported' | 'unavailable' | 'blocked' | 'off' | 'turning-on' | 'on' | 'failed';

export type SetupFacts = {
  /** The browser has notifications, service workers and push. */
  supported: boolean;
  permission: NotificationPermission;
  /** The server's push kind; null while unknown (loading, or the request failed). */
  configKind: 'fcm' | 'webpush' | 'none' | null;
  loading: boolean;
  /** The server holds a live registration of this device for this person. */
  registered: boolean;
  phase: 'idle' | 'turning-on' | 'failed';
};

export function setupStateOf(facts: SetupFacts): SetupState {
  if (!facts.supported) return 'unsupported';
  if (facts.phase === 'turning-on') return 'turning-on';
  if (facts.permission === 'denied') return 'blocked';
  if (facts.loading) return 'checking';
  if (facts.configKind === 'none') return 'unavailable';
  if (facts.permission === 'granted' && facts.registered) return 'on';
  return facts.phase === 'failed' ? 'failed' : 'off';
}

/** A VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether an existing subscription was made with this key (else it must be replaced). */
export function sameKey(existing: ArrayBuffer | null | undefined, wanted: Uint8Array): boolean {
  if (!existing || existing.byteLength !== wanted.byteLength) return false;
  const bytes = new Uint8Array(existing);
  return bytes.every((byte, index) => byte === wanted[index]);
}
