import { describe, expect, it } from 'vitest';
import { clockMessages } from '../time-tracking/time-clock.rules.ts';
import { mergeTimeEntries } from '../time-tracking/time-entry.conflict.ts';
import { kioskMessages } from './kiosk.messages.ts';
import { kioskChangeRefusal } from './kiosk-push.rules.ts';

const at = (hhmm: string) => `2026-11-23T${hhmm}:00.000Z`;
const now = new Date(at('18:00'));
const entry = (overrides: Record<string, unknown> = {}) => ({
  id: '7d3f2a4e-1111-4c1a-9a55-0c1f0d6d1a01',
  orgId: '7d3f2a4e-2222-4c1a-9a55-0c1f0d6d1a01',
  userId: '7d3f2a4e-3333-4c1a-9a55-0c1f0d6d1a01',
  startTime: at('08:02'),
  endTime: null as string | null,
  breakIntervals: [] as Array<{ startTime: string; endTime: string | null }>,
  updatedAt: at('08:02'),
  _deleted: false,
  ...overrides,
});

describe('what a kiosk may push (clock moves only)', () => {
  it('accepts a clock-in, and a whole day recorded offline', () => {
    expect(kioskChangeRefusal(null, entry(), now)).toBeNull();
    const day = entry({
      endTime: at('16:00'),
      breakIntervals: [{ startTime: at('12:00'), endTime: at('12:30') }],
      updatedAt: at('16:00'),
    });
    expect(kioskChangeRefusal(null, day, now)).toBeNull();
  });

  it('accepts a break, its end and the clock-out of a running entry', () => {
    const running = entry();
    const onBreak = entry({ breakIntervals: [{ startTime: at('12:00'), endTime: null }] });
    const back = entry({ breakIntervals: [{ startTime: at('12:00'), endTime: at('12:30') }] });
    const out = entry({ ...back, endTime: at('16:00') });
    expect(kioskChangeRefusal(running, onBreak, now)).toBeNull();
    expect(kioskChangeRefusal(onBreak, back, now)).toBeNull();
    expect(kioskChangeRefusal(back, out, now)).toBeNull();
  });

  it('accepts the merge of two devices’ clock-outs (the later one wins)', () => {
    const master = entry({ endTime: at('16:00'), updatedAt: at('16:00') });
    const kiosk = entry({ endTime: at('16:10'), updatedAt: at('16:10') });
    expect(kioskChangeRefusal(master, mergeTimeEntries(master, kiosk), now)).toBeNull();
    expect(kioskChangeRefusal(kiosk, mergeTimeEntries(kiosk, master), now)).toBeNull();
  });

  it('refuses deletions, other starts, shorter entries and breaks taken away', () => {
    const done = entry({
      endTime: at('16:00'),
      breakIntervals: [{ startTime: at('12:00'), endTime: at('12:30') }],
    });
    type Entry = ReturnType<typeof entry>;
    const refused: Array<[Entry | null, Entry]> = [
      [done, { ...done, _deleted: true }],
      [null, entry({ _deleted: true })],
      [{ ...done, _deleted: true }, done],
      [done, { ...done, startTime: at('07:00') }],
      [done, { ...done, endTime: at('15:00') }],
      [done, { ...done, endTime: null }],
      [done, { ...done, breakIntervals: [] }],
      [done, { ...done, breakIntervals: [{ startTime: at('12:00'), endTime: at('12:10') }] }],
      [done, { ...done, breakIntervals: [{ startTime: at('12:00'), endTime: null }] }],
    ];
    for (const [master, next] of refused) {
      expect(kioskChangeRefusal(master, next, now)).toBe(kioskMessages.clockMovesOnly);
    }
  });

  it('refuses a time it adds ahead of the server, but not one the entry already had', () => {
    expect(kioskChangeRefusal(null, entry({ startTime: at('18:06') }), now)).toBe(
      clockMessages.inTheFuture,
    );
    expect(kioskChangeRefusal(null, entry({ startTime: at('18:04') }), now)).toBeNull();
    const future = entry({ startTime: at('19:00') });
    expect(kioskChangeRefusal(future, { ...future, endTime: at('17:00') }, now)).toBeNull();
    expect(kioskChangeRefusal(entry(), entry({ endTime: at('19:00') }), now)).toBe(
      clockMessages.inTheFuture,
    );
  });
});
