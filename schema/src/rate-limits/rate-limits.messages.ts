// Texts of the rate limits that are not the log-in's own (auth.messages.ts tooManyAttempts).

/** 'Too many requests. Please try again in 5 minutes.' — rounded up, at least one minute. */
export function tooManyRequestsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many requests. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
