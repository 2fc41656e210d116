import { z } from 'zod';
import { parseMoneyInput } from '../payments/money.ts';
import { isDayKey } from '../time-tracking/org-calendar.ts';
import {
  fromRRule,
  MAX_OCCURRENCES,
  recurrenceMessages,
  weekdayKeys,
  type WeekdayKey,
} from './recurrence.ts';
import { MAX_CAPACITY, scheduleMessages, type ClassDoc, type ClassInput } from './schedule.zod.ts';

/**
 * The class or event form as staff fill it in (text inputs, a repeat section), checked with the
 * messages of schedule.zod.ts and recurrence.ts, and turned into the ClassInput the server
 * checks again (decision 0056: rules once, in schema/).
 */

const wholeIn = (text: string, min: number, max: number) => {
  if (!/^\d+$/.test(text.trim())) return false;
  const value = Number(text);
  return value >= min && value <= max;
};

export const classFormSchema = z
  .object({
    kind: z.enum(['class', 'event']),
    title: z
      .string()
      .trim()
      .min(1, scheduleMessages.titleRequired)
      .max(120, scheduleMessages.titleTooLong),
    description: z.string().max(2000, scheduleMessages.descriptionTooLong),
    location: z.string().max(200, scheduleMessages.locationTooLong),
    coachUserId: z.string(),
    capacity: z.string().refine((v) => wholeIn(v, 1, MAX_CAPACITY), scheduleMessages.capacity),
    price: z
      .string()
      .refine((v) => v.trim() === '' || parseMoneyInput(v) !== null, scheduleMessages.price),
    entitlingProductIds: z.array(z.string()),
    punchCardGroupIds: z.array(z.string()),
    date: z.string().refine(isDayKey, scheduleMessages.start),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, scheduleMessages.start),
    durationMinutes: z.string().refine((v) => wholeIn(v, 5, 24 * 60), scheduleMessages.duration),
    repeat: z.enum(['none', 'weekly']),
    weekdays: z.array(z.enum(weekdayKeys)),
    intervalWeeks: z.string(),
    endKind: z.enum(['until', 'count']),
    until: z.string(),
    count: z.string(),
  })
  .superRefine((form, ctx) => {
    if (form.repeat !== 'weekly') return;
    if (form.weekdays.length === 0)
      ctx.addIssue({ code: 'custom', path: ['weekdays'], message: recurrenceMessages.weekdays });
    if (!wholeIn(form.intervalWeeks, 1, 52))
      ctx.addIssue({
        code: 'custom',
        path: ['intervalWeeks'],
        message: recurrenceMessages.interval,
      });
    if (form.endKind === 'until' && !isDayKey(form.until))
      ctx.addIssue({ code: 'custom', path: ['until'], message: recurrenceMessages.until });
    if (form.endKind === 'count' && !wholeIn(form.count, 1, MAX_OCCURRENCES))
      ctx.addIssue({ code: 'custom', path: ['count'], message: recurrenceMessages.count });
  });
export type ClassFormValues = z.infer<typeof classFormSchema>;

const weekdayOf = (day: string): WeekdayKey =>
  weekdayKeys[(new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7]!;

/** A blank form for a class starting on `day` at `time` (the clicked slot, or tomorrow). */
export function blankClassForm(day: string, time = '18:00'): ClassFormValues {
  return {
    kind: 'class',
    title: '',
    description: '',
    location: '',
    coachUserId: '',
    capacity: '12',
    price: '',
    entitlingProductIds: [],
    punchCardGroupIds: [],
    date: day,
    time,
    durationMinutes: '60',
    repeat: 'weekly',
    weekdays: [weekdayOf(day)],
    intervalWeeks: '1',
    endKind: 'count',
    until: '',
    count: '12',
  };
}

/** The form of an existing series (to edit all of it). */
export function classFormOf(doc: ClassDoc): ClassFormValues {
  const [date = '', time = ''] = doc.firstStart.split('T');
  const recurrence = doc.rrule ? fromRRule(doc.rrule) : null;
  return {
    kind: doc.kind,
    title: doc.title,
    description: doc.description,
    location: doc.location,
    coachUserId: doc.coachUserId ?? '',
    capacity: String(doc.capacity),
    price:
      doc.priceMinor === null
        ? ''
        : `${Math.floor(doc.priceMinor / 100)}.${String(doc.priceMinor % 100).padStart(2, '0')}`,
    entitlingProductIds: [...doc.entitlingProductIds],
    punchCardGroupIds: [...doc.punchCardGroupIds],
    date,
    time,
    durationMinutes: String(doc.durationMinutes),
    repeat: recurrence ? 'weekly' : 'none',
    weekdays: recurrence ? [...recurrence.weekdays] : [weekdayOf(date)],
    intervalWeeks: String(recurrence?.intervalWeeks ?? 1),
    endKind: recurrence?.end.kind ?? 'count',
    until: recurrence?.end.kind === 'until' ? recurrence.end.until : '',
    count: recurrence?.end.kind === 'count' ? String(recurrence.end.count) : '12',
  };
}

/** What the server is sent, from a form that passed `classFormSchema`. */
export function classInputOf(form: ClassFormValues): ClassInput {
  return {
    kind: form.kind,
    title: form.title.trim(),
    description: form.description.trim(),
    location: form.location.trim(),
    coachUserId: form.coachUserId || null,
    capacity: Number(form.capacity),
    priceMinor: form.price.trim() === '' ? null : parseMoneyInput(form.price),
    entitlingProductIds: form.entitlingProductIds,
    punchCardGroupIds: form.punchCardGroupIds,
    firstStart: `${form.date}T${form.time}`,
    durationMinutes: Number(form.durationMinutes),
    recurrence:
      form.repeat === 'weekly'
        ? {
            weekdays: weekdayKeys.filter((day) => form.weekdays.includes(day)),
            intervalWeeks: Number(form.intervalWeeks),
            end:
              form.endKind === 'until'
                ? { kind: 'until', until: form.until }
                : { kind: 'count', count: Number(form.count) },
          }
        : null,
  };
}
