import { describe, expect, it } from 'vitest';
import { icsOf, icsUidOf } from './ics.ts';

const entry = {
  uid: icsUidOf('o1', 'p1'),
  title: 'Yoga, flow; and more 🧘',
  location: 'Studio 1, back room',
  description: 'Bring a mat.\nWater provided.',
  startsAt: '2026-12-01T23:00:00.000Z',
  endsAt: '2026-12-02T00:00:00.000Z',
  cancelled: false,
};

describe('icsOf', () => {
  it('writes UTC times, escapes commas, semicolons and newlines, and keeps emoji', () => {
    const text = icsOf([entry], 'Zipper Fitness');
    expect(text).toContain('DTSTART:20261201T230000Z\r\n');
    expect(text).toContain('DTEND:20261202T000000Z\r\n');
    expect(text).toContain('SUMMARY:Yoga\\, flow\\; and more 🧘');
    expect(text).toContain('LOCATION:Studio 1\\, back room');
    expect(text).toContain('DESCRIPTION:Bring a mat.\\nWater provided.');
    expect(text).toContain('UID:o1.p1@coaching-platform');
    expect(text).toContain('X-WR-CALNAME:Zipper Fitness');
    expect(text).toContain('STATUS:CONFIRMED');
  });
  it('folds long lines at 75 octets and marks cancelled classes', () => {
    const text = icsOf([{ ...entry, title: 'A'.repeat(200), cancelled: true }], 'X');
    for (const line of text.split('\r\n'))
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(text).toContain('STATUS:CANCELLED');
  });
  it('writes an empty calendar for nobody booked', () => {
    const text = icsOf([], 'Empty');
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
    expect(text).not.toContain('BEGIN:VEVENT');
  });
});
