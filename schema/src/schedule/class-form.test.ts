import { describe, expect, it } from 'vitest';
import { blankClassForm, classFormOf, classFormSchema, classInputOf } from './class-form.zod.ts';
import { recurrenceMessages, toRRule } from './recurrence.ts';
import { classInputSchema, scheduleMessages, type ClassDoc } from './schedule.zod.ts';

const messagesOf = (values: unknown) => {
  const result = classFormSchema.safeParse(values);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the class form', () => {
  it('starts on the chosen day with that weekday ticked, and sends what the server accepts', () => {
    const form = {
      ...blankClassForm('2026-12-02', '18:30'),
      title: 'Evening HIIT',
      price: '12.50',
    };
    expect(form.weekdays).toEqual(['WE']);
    const input = classInputOf(form);
    expect(classInputSchema.safeParse(input).success).toBe(true);
    expect(input).toMatchObject({
      firstStart: '2026-12-02T18:30',
      priceMinor: 1250,
      capacity: 12,
      recurrence: { weekdays: ['WE'], intervalWeeks: 1, end: { kind: 'count', count: 12 } },
    });
  });

  it('says what is wrong with the words of schema/', () => {
    const form = {
      ...blankClassForm('2026-12-02'),
      title: ' ',
      capacity: '0',
      price: '12.345',
      durationMinutes: '3',
      weekdays: [],
      intervalWeeks: '60',
      count: '501',
    };
    expect(messagesOf(form)).toEqual([
      `title: ${scheduleMessages.titleRequired}`,
      `capacity: ${scheduleMessages.capacity}`,
      `price: ${scheduleMessages.price}`,
      `durationMinutes: ${scheduleMessages.duration}`,
      `weekdays: ${recurrenceMessages.weekdays}`,
      `intervalWeeks: ${recurrenceMessages.interval}`,
      `count: ${recurrenceMessages.count}`,
    ]);
    expect(
      messagesOf({ ...blankClassForm('2026-12-02'), title: 'Yoga', endKind: 'until', until: '' }),
    ).toEqual([`until: ${recurrenceMessages.until}`]);
    // A one-off does not look at the repeat fields.
    expect(
      messagesOf({ ...blankClassForm('2026-12-02'), title: 'Yoga', repeat: 'none', weekdays: [] }),
    ).toEqual([]);
  });

  it('reads a saved series back into the form unchanged', () => {
    const recurrence = {
      weekdays: ['MO', 'WE'] as const,
      intervalWeeks: 2,
      end: { kind: 'until' as const, until: '2027-03-01' },
    };
    const doc: ClassDoc = {
      id: '00000000-0000-4000-8000-000000000001',
      orgId: '00000000-0000-4000-8000-000000000002',
      kind: 'event',
      title: 'Open mat',
      description: 'Bring a friend',
      location: 'Hall',
      coachUserId: null,
      coachName: null,
      capacity: 30,
      priceMinor: 1005,
      currency: 'USD',
      entitlingProductIds: [],
      punchCardGroupIds: [],
      firstStart: '2026-12-07T19:00',
      durationMinutes: 90,
      rrule: toRRule({ ...recurrence, weekdays: [...recurrence.weekdays] }),
      timeZone: 'America/New_York',
      updatedAt: '2026-11-24T00:00:00.000Z',
    };
    const form = classFormOf(doc);
    expect(form).toMatchObject({
      price: '10.05',
      date: '2026-12-07',
      time: '19:00',
      repeat: 'weekly',
      endKind: 'until',
      until: '2027-03-01',
      intervalWeeks: '2',
    });
    expect(classInputOf(form)).toMatchObject({
      priceMinor: 1005,
      recurrence: {
        weekdays: ['MO', 'WE'],
        intervalWeeks: 2,
        end: { kind: 'until', until: '2027-03-01' },
      },
    });
  });
});
