import { describe, expect, it } from 'vitest';
import { tooManyRequestsMessage } from '@platform/schema/rate-limits/rate-limits.messages';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { failureText, familyTexts } from './family-texts.ts';

describe('failureText', () => {
  const otherwise = 'We could not create the child accounts. Please try again.';

  it('says how long to wait when the server limited the request', () => {
    const limited = new ApiError(429, { error: 'RateLimited', message: tooManyRequestsMessage(5 * 60_000) });
    expect(failureText(limited, otherwise)).toBe('Too many requests. Please try again in 5 minutes.');
  });

  it('says offline when the request never arrived, and the given text otherwise', () => {
    expect(failureText(new NetworkError('offline'), otherwise)).toBe(familyTexts.offline);
    expect(failureText(new ApiError(500, null), otherwise)).toBe(otherwise);
  });
});
