/**
 * How many live streams each holder (a session, or a kiosk device) has open, so one holder
 * cannot tie up the server with connections. Counted in this process only: behind two server
 * processes a holder may have up to `max` on each. Sharing the count (a table, or advisory
 * locks) would cost a database round trip per connect and a cleanup for crashed processes; the
 * per-process bound already caps what one holder can hold.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A place for one more stream of `holder`, and how to give it back; null when all are taken. */
  take(holder: string): (() => void) | null {
    const count = this.open.get(holder) ?? 0;
    if (count >= this.max) return null;
    this.open.set(holder, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(holder) ?? 1) - 1;
      if (left > 0) this.open.set(holder, left);
      else this.open.delete(holder);
    };
  }
}
