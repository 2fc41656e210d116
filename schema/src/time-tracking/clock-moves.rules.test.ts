import { describe, expect, it } from 'vitest';
import { clockStatusText, offeredClockMoves } from './clock-moves.rules.ts';

const running = {
  id: '7d3f2a4e-1111-4c1a-9a55-0c1f0d6d1a01',
  startTime: '2026-11-23T08:02:00.000Z',
};
const active = { status: 'active' as const, activeEntry: { ...running, breakIntervals: [] } };
const onBreak = {
  status: 'on_break' as const,
  activeEntry: {
    ...running,
    breakIntervals: [{ startTime: '2026-11-23T12:00:00.000Z', endTime: null }],
  },
};

describe('the clock moves offered (spec §4)', () => {
  it('offers Clock In when out, Start Break or Clock Out when active, only Return from Break on a break', () => {
    expect(offeredClockMoves({ status: 'none', activeEntry: null })).toEqual(['clock-in']);
    expect(offeredClockMoves({ status: 'completed', activeEntry: null })).toEqual(['clock-in']);
    expect(offeredClockMoves(active)).toEqual(['start-break', 'clock-out']);
    expect(offeredClockMoves(onBreak)).toEqual(['end-break']);
  });

  it('says the status with the times the caller formats', () => {
    const time = (iso: string) => iso.slice(11, 16);
    expect(clockStatusText({ status: 'none', activeEntry: null }, time)).toBe('Not clocked in');
    expect(clockStatusText(active, time)).toBe('Clocked in since 08:02');
    expect(clockStatusText(onBreak, time)).toBe('On break since 12:00');
    expect(clockStatusText({ status: 'completed', activeEntry: null }, time)).toBe('Clocked out');
  });
});
