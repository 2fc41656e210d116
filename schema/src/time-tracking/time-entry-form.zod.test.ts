import { describe, expect, it } from 'vitest';
import {
  formFromEntry,
  timeEntryFormMessages,
  timeEntryFormSchema,
  timesFromForm,
} from './time-entry-form.zod.ts';
import { timeEntryMessages } from './time-entry.rules.ts';
import { timeOutOfRangeMessage } from '../sync/iso-time.ts';

const NY = 'America/New_York';
const form = (start: string, end: string, breaks: Array<[string, string]> = []) => ({
  start,
  end,
  breaks: breaks.map(([s, e]) => ({ start: s, end: e })),
});
const issuesOf = (values: ReturnType<typeof form>) => {
  const result = timeEntryFormSchema(NY).safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('the time-entry form', () => {
  it('reads wall-clock times in the organisation’s zone and stores UTC', () => {
    const values = form('2026-11-23T08:30', '2026-11-23T17:15', [
      ['2026-11-23T12:00', '2026-11-23T12:45'],
    ]);
    expect(issuesOf(values)).toEqual([]);
    expect(timesFromForm(values, NY)).toEqual({
      startTime: '2026-11-23T13:30:00.000Z',
      endTime: '2026-11-23T22:15:00.000Z',
      breakIntervals: [
        { startTime: '2026-11-23T17:00:00.000Z', endTime: '2026-11-23T17:45:00.000Z' },
      ],
    });
    // An empty end: still running.
    expect(timesFromForm(form('2026-11-23T08:30', ''), NY)?.endTime).toBeNull();
  });

  it('speaks the entry rules’ messages, on the field they concern', () => {
    expect(issuesOf(form('2026-11-23T08:30', '2026-11-23T08:00'))).toEqual([
      ['end', timeEntryMessages.endsBeforeStart],
    ]);
    expect(
      issuesOf(
        form('2026-11-23T08:30', '2026-11-23T12:00', [['2026-11-23T12:30', '2026-11-23T12:45']]),
      ),
    ).toEqual([['breaks', timeEntryMessages.breakOutside]]);
    expect(
      issuesOf(
        form('2026-11-23T08:30', '2026-11-23T17:00', [
          ['2026-11-23T12:00', '2026-11-23T12:45'],
          ['2026-11-23T12:30', '2026-11-23T13:00'],
        ]),
      ),
    ).toEqual([['breaks', timeEntryMessages.breaksOverlap]]);
  });

  it('asks for what is missing or malformed', () => {
    expect(issuesOf(form('', ''))).toEqual([['start', timeEntryFormMessages.startRequired]]);
    expect(issuesOf(form('2026-11-23T08:30', 'soon', [['', '']]))).toEqual([
      ['end', timeEntryFormMessages.notATime],
      ['breaks.0.start', timeEntryFormMessages.breakStartRequired],
    ]);
  });

  it('refuses times outside the range the server accepts, with the server’s words', () => {
    expect(issuesOf(form('0025-11-20T09:00', '0025-11-20T17:00'))).toEqual([
      ['start', timeOutOfRangeMessage],
      ['end', timeOutOfRangeMessage],
    ]);
    expect(
      issuesOf(form('2026-11-23T08:30', '2026-11-23T17:00', [['2200-01-01T12:00', '']])),
    ).toContainEqual(['breaks.0.start', timeOutOfRangeMessage]);
    // The first minute of 1900 in New York is 05:00 UTC: inside.
    expect(issuesOf(form('1900-01-01T00:00', '1900-01-01T08:00'))).toEqual([]);
  });

  it('reads the years 0–99 as typed, never as 19xx', () => {
    expect(timesFromForm(form('0025-11-20T09:00', ''), 'UTC')?.startTime).toBe(
      '0025-11-20T09:00:00.000Z',
    );
  });

  it('keeps the stored instant of every value left as shown (the inputs show minutes only)', () => {
    const stored = {
      startTime: '2026-11-23T13:02:13.456Z',
      endTime: '2026-11-23T21:59:59.999Z',
      breakIntervals: [
        { startTime: '2026-11-23T17:00:30.000Z', endTime: '2026-11-23T17:20:00.500Z' },
      ],
    };
    const shown = formFromEntry(stored, NY);
    expect(shown).toEqual(
      form('2026-11-23T08:02', '2026-11-23T16:59', [['2026-11-23T12:00', '2026-11-23T12:20']]),
    );
    expect(timesFromForm(shown, NY, stored)).toEqual(stored);
    expect(timesFromForm({ ...shown, start: '2026-11-23T07:30' }, NY, stored)).toEqual({
      ...stored,
      startTime: '2026-11-23T12:30:00.000Z',
    });
  });
});
