import { describe, expect, it } from 'vitest';
import { kioskMovesFor } from './kiosk-moves.rules.ts';

const running = {
  id: '7d3f2a4e-1111-4c1a-9a55-0c1f0d6d1a01',
  startTime: '2026-11-23T08:02:00.000Z',
};

describe('the moves a kiosk offers (spec §4)', () => {
  it('offers Clock In when clocked out, Start Break or Clock Out when active, Return or Clock Out on a break', () => {
    expect(kioskMovesFor({ status: 'none', activeEntry: null })).toEqual(['clock-in']);
    expect(kioskMovesFor({ status: 'completed', activeEntry: null })).toEqual(['clock-in']);
    expect(
      kioskMovesFor({ status: 'active', activeEntry: { ...running, breakIntervals: [] } }),
    ).toEqual(['start-break', 'clock-out']);
    expect(
      kioskMovesFor({
        status: 'on_break',
        activeEntry: {
          ...running,
          breakIntervals: [{ startTime: '2026-11-23T12:00:00.000Z', endTime: null }],
        },
      }),
    ).toEqual(['end-break', 'clock-out']);
  });
});
