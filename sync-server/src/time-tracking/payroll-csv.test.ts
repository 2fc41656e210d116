import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, csvText, payrollCsvHeader, payrollRecord } from './payroll-csv.ts';

const entry = {
  id: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a001',
  orgId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a002',
  userId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a003',
  fullName: 'Sam Staff',
  email: 'staff@zipper.demo',
  startTime: '2026-11-23T13:30:00.000Z',
  endTime: '2026-11-23T22:15:00.000Z',
  breakIntervals: [{ startTime: '2026-11-23T17:00:00.000Z', endTime: '2026-11-23T17:45:00.000Z' }],
  updatedAt: '2026-11-23T22:15:00.000Z',
};
const now = Date.parse('2026-11-24T12:00:00.000Z');

describe('RFC 4180 fields', () => {
  it('quotes a field with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Staff, Sam')).toBe('"Staff, Sam"');
    expect(csvField('Sam "The Clock" Staff')).toBe('"Sam ""The Clock"" Staff"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('')).toBe('');
  });

  it('keeps a name a spreadsheet would run as a formula as text', () => {
    expect(csvText('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvText('+1 555')).toBe("'+1 555");
    expect(csvText('-Sam')).toBe("'-Sam");
    expect(csvText('@Sam')).toBe("'@Sam");
    expect(csvText('Zoë Ørsted')).toBe('Zoë Ørsted');
  });

  it('writes UTF-8 with a byte-order mark and CRLF after every record', () => {
    expect(
      csvDocument([
        ['a', 'b'],
        ['c', '"d,"'],
      ]),
    ).toBe('\uFEFFa,b\r\nc,"d,"\r\n');
  });
});

describe('a payroll row', () => {
  it('gives the organisation’s date and times, break minutes and decimal hours', () => {
    expect(payrollCsvHeader).toEqual([
      'Person',
      'Email',
      'Date',
      'Start',
      'End',
      'Break minutes',
      'Worked hours',
    ]);
    expect(payrollRecord(entry, 'America/New_York', now)).toEqual([
      'Sam Staff',
      'staff@zipper.demo',
      '2026-11-23',
      '08:30',
      '17:15',
      '45',
      '8.00',
    ]);
    // In Tokyo the same hours are a night shift: it starts at 22:30 and ends the next morning.
    expect(payrollRecord(entry, 'Asia/Tokyo', now).slice(2, 5)).toEqual([
      '2026-11-23',
      '22:30',
      '07:15',
    ]);
  });

  it('leaves the end blank while the entry runs and counts it up to now', () => {
    const running = {
      ...entry,
      endTime: null,
      breakIntervals: [{ startTime: '2026-11-24T10:00:00.000Z', endTime: null }],
      startTime: '2026-11-24T09:00:00.000Z',
    };
    expect(payrollRecord(running, 'America/New_York', now).slice(3)).toEqual([
      '04:00',
      '',
      '120',
      '1.00',
    ]);
  });
});
