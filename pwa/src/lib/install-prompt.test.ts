import { describe, expect, it } from 'vitest';
import { isIosSafari } from './install-prompt.ts';

const ua = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  iPhoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  iPadOsSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};

describe('isIosSafari', () => {
  it('is true for Safari on iPhone and iPad (which reports a Mac with a touch screen)', () => {
    expect(isIosSafari(ua.iPhoneSafari, 5)).toBe(true);
    expect(isIosSafari(ua.iPadOsSafari, 5)).toBe(true);
  });

  it('is false where the browser offers its own install, or on a real Mac', () => {
    expect(isIosSafari(ua.iPhoneChrome, 5)).toBe(false);
    expect(isIosSafari(ua.androidChrome, 5)).toBe(false);
    expect(isIosSafari(ua.iPadOsSafari, 0)).toBe(false);
  });
});
