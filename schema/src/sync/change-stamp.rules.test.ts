import { describe, expect, it } from 'vitest';
import {
  changeStampMessages,
  changeStampRefusal,
  MAX_CLOCK_AHEAD_MS,
} from './change-stamp.rules.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe('changeStampRefusal (issue 12: updatedAt is bounded by the server’s clock)', () => {
  it('accepts stamps in the past, now, and up to the drift allowance ahead', () => {
    expect(changeStampRefusal('2020-01-01T00:00:00.000Z', now)).toBeNull();
    expect(changeStampRefusal(at(0), now)).toBeNull();
    expect(changeStampRefusal(at(MAX_CLOCK_AHEAD_MS), now)).toBeNull();
  });

  it('refuses a stamp further ahead, with a message that points at the device’s clock', () => {
    expect(changeStampRefusal(at(MAX_CLOCK_AHEAD_MS + 1), now)).toBe(
      changeStampMessages.aheadOfServer,
    );
    expect(changeStampRefusal('2099-01-01T00:00:00.000Z', now)).toBe(
      changeStampMessages.aheadOfServer,
    );
  });
});
