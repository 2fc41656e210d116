import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, sameKey, setupStateOf, type SetupFacts } from './notification-state.ts';

const facts = (overrides: Partial<SetupFacts> = {}): SetupFacts => ({
  supported: true,
  permission: 'default',
  configKind: 'webpush',
  loading: false,
  registered: false,
  phase: 'idle',
  ...overrides,
});

describe('the notification controls’ state (spec §4 Notification permission)', () => {
  it('offers the button until the permission is granted and this device is registered', () => {
    expect(setupStateOf(facts())).toBe('off');
    expect(setupStateOf(facts({ permission: 'granted' }))).toBe('off');
    expect(setupStateOf(facts({ permission: 'granted', registered: true }))).toBe('on');
    expect(setupStateOf(facts({ phase: 'turning-on' }))).toBe('turning-on');
    expect(setupStateOf(facts({ phase: 'failed' }))).toBe('failed');
  });

  it('explains instead when the browser blocks them, cannot do them, or the server has no push', () => {
    expect(setupStateOf(facts({ permission: 'denied', registered: true }))).toBe('blocked');
    expect(setupStateOf(facts({ supported: false }))).toBe('unsupported');
    expect(setupStateOf(facts({ configKind: 'none' }))).toBe('unavailable');
    expect(setupStateOf(facts({ loading: true }))).toBe('checking');
    // The server could not be asked (offline): the button still offers itself.
    expect(setupStateOf(facts({ configKind: null }))).toBe('off');
  });
});

describe('VAPID keys', () => {
  const key =
    'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

  it('decodes base64url to the 65 bytes of an uncompressed P-256 point', () => {
    const bytes = base64UrlToBytes(key);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
    expect(Buffer.from(bytes).toString('base64url')).toBe(key);
  });

  it('tells whether an existing subscription used the same key', () => {
    const bytes = base64UrlToBytes(key);
    expect(sameKey(bytes.slice().buffer, bytes)).toBe(true);
    const other = bytes.slice();
    other[10] = (other[10] ?? 0) ^ 1;
    expect(sameKey(other.buffer, bytes)).toBe(false);
    expect(sameKey(null, bytes)).toBe(false);
  });
});
