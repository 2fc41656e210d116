/** A document as replicated: its fields plus the tombstone flag. */
export type Replicated<T> = T & { _deleted: boolean; updatedAt: string };

/**
 * Last writer wins by `updatedAt` (the time the change was made, on whichever device); on a
 * tie the server's master wins, so every device settles on the same answer.
 */
export function lastWriterWins<T>(master: Replicated<T>, local: Replicated<T>): Replicated<T> {
  return Date.parse(local.updatedAt) > Date.parse(master.updatedAt) ? local : master;
}

export const laterTime = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);
export const earlierTime = (a: string, b: string) => (Date.parse(a) <= Date.parse(b) ? a : b);
