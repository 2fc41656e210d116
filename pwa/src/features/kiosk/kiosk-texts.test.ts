import { describe, expect, it } from 'vitest';
import { orgFormat } from '@platform/schema/organizations/org-format';
import {
  checkedInCountText,
  checkInOpensText,
  checkInRefusedText,
  moveConfirmationText,
  pendingText,
  tileStatusText,
} from './kiosk-texts.ts';

describe('kiosk texts', () => {
  it('confirms a move with the name, the move and the time in the organisation’s way', () => {
    const time = orgFormat('America/New_York').time('2026-11-23T20:31:00.000Z');
    expect(moveConfirmationText('Sam', 'clock-in', time)).toBe('Sam — clocked in 3:31\u00a0PM');
    const london = orgFormat('Europe/London').time('2026-11-23T20:31:00.000Z');
    expect(moveConfirmationText('Sam', 'clock-out', london)).toBe('Sam — clocked out 20:31');
    expect(moveConfirmationText('Sam', 'end-break', london)).toBe('Sam — back from break 20:31');
  });

  it('names each clock state on a tile, and the moves waiting to be sent', () => {
    expect(
      ['none', 'active', 'on_break', 'completed'].map((s) => tileStatusText(s as never)),
    ).toEqual(['Out', 'In', 'On break', 'Out']);
    expect(pendingText(0)).toBe('All actions sent');
    expect(pendingText(2)).toBe('2 actions waiting to be sent');
  });

  it('says how many of a class are checked in, when check-in opens, and why one was refused', () => {
    expect(checkedInCountText(1, 12)).toBe('1 of 12 checked in');
    const time = orgFormat('America/New_York').time('2026-11-23T22:00:00.000Z');
    expect(checkInOpensText(time)).toBe('Check-in opens at 5:00\u00a0PM.');
    expect(checkInRefusedText('Pat Parent', 'This class was cancelled.')).toBe(
      'Pat Parent could not be checked in. This class was cancelled.',
    );
  });
});
