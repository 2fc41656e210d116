/**
 * `updatedAt` is when a change was made, by the clock of the device that made it, and "the
 * later change wins" (conflict.rules.ts) compares those stamps. A device whose clock runs
 * years ahead would win every such decision from then on, a delete included (issue 12). The
 * server, which knows its own clock, refuses a pushed change stamped more than this far ahead
 * of it; so every stored stamp is a real time (give or take the drift allowed), and the
 * conflict rules only ever weigh a far-future stamp on the device that made it, whose push of
 * the outcome is refused (decision 0046).
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

export const changeStampMessages = {
  aheadOfServer:
    'This change is dated in the future. Check the date and time on your device, then make the change again.',
} as const;

/** Why a change stamped `updatedAt` is refused by a server whose clock says `now`, or null. */
export function changeStampRefusal(updatedAt: string, now: Date): string | null {
  return Date.parse(updatedAt) - now.getTime() > MAX_CLOCK_AHEAD_MS
    ? changeStampMessages.aheadOfServer
    : null;
}
