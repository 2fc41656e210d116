import { z } from 'zod';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { daysBetween, isDayKey } from './org-calendar.ts';
import { clockStatuses } from './time-clock.rules.ts';
import { breakIntervalSchema, timeEntryDocSchema } from './time-entry.zod.ts';

// spec §7 POST /api/time-tracking: `action` names the operation and its payload sits beside it;
// every payload carries the organisation it acts in.
const orgId = z.uuid();
/** Whose clock or entries; omitted means the caller's own (others need manage-others-time-tracking). */
const userId = z.uuid().optional();

/** `at`: when the move happened — an offline device sends it later; the server uses its own time without it. */
const clockAction = <A extends string>(action: A) =>
  z.object({ action: z.literal(action), orgId, userId, at: isoTimeSchema.optional() });

export const clockInInputSchema = clockAction('clock-in');
export const clockOutInputSchema = clockAction('clock-out');
export const startBreakInputSchema = clockAction('start-break');
export const endBreakInputSchema = clockAction('end-break');
export type ClockActionInput = z.infer<
  | typeof clockInInputSchema
  | typeof clockOutInputSchema
  | typeof startBreakInputSchema
  | typeof endBreakInputSchema
>;

export const getCurrentStatusInputSchema = z.object({
  action: z.literal('get-current-status'),
  orgId,
  userId,
});
export type GetCurrentStatusInput = z.infer<typeof getCurrentStatusInputSchema>;

/** Entries overlapping [from, to); `userId: 'all'` lists everyone's in the organisation. */
export const getTimeEntriesInputSchema = z.object({
  action: z.literal('get-time-entries'),
  orgId,
  userId: z.union([z.uuid(), z.literal('all')]).optional(),
  from: isoTimeSchema.optional(),
  to: isoTimeSchema.optional(),
});
export type GetTimeEntriesInput = z.infer<typeof getTimeEntriesInputSchema>;

const entryTimes = {
  startTime: isoTimeSchema,
  endTime: isoTimeSchema.nullable(),
  breakIntervals: z.array(breakIntervalSchema).max(50),
};

export const createTimeEntryInputSchema = z.object({
  action: z.literal('create-time-entry'),
  orgId,
  timeEntry: z.object({
    ...entryTimes,
    breakIntervals: entryTimes.breakIntervals.default([]),
    userId,
  }),
});
export type CreateTimeEntryInput = z.infer<typeof createTimeEntryInputSchema>;

/** Only the times change; an entry never moves to another person. Fields left out keep their value. */
export const updateTimeEntryInputSchema = z.object({
  action: z.literal('update-time-entry'),
  orgId,
  entryId: z.uuid(),
  // No defaults here: a field left out must not overwrite the stored one.
  timeEntry: z.object(entryTimes).partial(),
});
export type UpdateTimeEntryInput = z.infer<typeof updateTimeEntryInputSchema>;

/** spec §7 names both `entryId` and `deleteData`; either form is accepted. */
export const deleteTimeEntryInputSchema = z
  .object({
    action: z.literal('delete-time-entry'),
    orgId,
    entryId: z.uuid().optional(),
    deleteData: z.object({ entryId: z.uuid() }).optional(),
  })
  .refine((input) => (input.entryId ?? input.deleteData?.entryId) !== undefined, {
    message: 'entryId is required',
    path: ['entryId'],
  });
export type DeleteTimeEntryInput = z.infer<typeof deleteTimeEntryInputSchema>;

export const timeTrackingRequestSchema = z.discriminatedUnion('action', [
  clockInInputSchema,
  clockOutInputSchema,
  startBreakInputSchema,
  endBreakInputSchema,
  getCurrentStatusInputSchema,
  getTimeEntriesInputSchema,
  createTimeEntryInputSchema,
  updateTimeEntryInputSchema,
  deleteTimeEntryInputSchema,
]);
export type TimeTrackingRequest = z.infer<typeof timeTrackingRequestSchema>;

// Answers: clock actions and get-current-status answer a ClockState; create and update the stored entry.
export const clockStateSchema = z.object({
  status: z.enum(clockStatuses),
  activeEntry: z
    .object({
      id: z.uuid(),
      startTime: isoTimeSchema,
      breakIntervals: z.array(breakIntervalSchema),
    })
    .nullable(),
});
export const timeEntriesAnswerSchema = z.object({ entries: z.array(timeEntryDocSchema) });
export const deletedAnswerSchema = z.object({ ok: z.literal(true) });

// Ours (the spec shows no paths for these): the team list and the payroll export.

/** GET /api/time-tracking/people: the organisation's staff, for managers' team view. */
export const timeTrackingPeopleQuerySchema = z.object({ orgId });
export const timeTrackingPersonSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
});
export type TimeTrackingPerson = z.infer<typeof timeTrackingPersonSchema>;
export const timeTrackingPeopleAnswerSchema = z.object({
  people: z.array(timeTrackingPersonSchema),
});

/** An export covers at most this many days (a year and a day, so any calendar year fits). */
export const MAX_EXPORT_DAYS = 366;
export const exportMessages = {
  notADay: 'Give the day as YYYY-MM-DD.',
  toBeforeFrom: 'The last day must not be before the first.',
  tooLong: `An export covers at most ${MAX_EXPORT_DAYS} days.`,
} as const;
const day = z.string().refine(isDayKey, exportMessages.notADay);

/** The days checks of an export: both real days, in order, not longer than MAX_EXPORT_DAYS. */
function checkedRange<T extends z.ZodType<{ from: string; to: string }>>(schema: T) {
  const bothDays = (q: { from: string; to: string }) => isDayKey(q.from) && isDayKey(q.to);
  return schema
    .refine((q) => !bothDays(q) || q.to >= q.from, {
      message: exportMessages.toBeforeFrom,
      path: ['to'],
    })
    .refine((q) => !bothDays(q) || daysBetween(q.from, q.to) < MAX_EXPORT_DAYS, {
      message: exportMessages.tooLong,
      path: ['to'],
    });
}

/** The export form's days (the organisation's, both included). */
export const exportRangeSchema = checkedRange(z.object({ from: day, to: day }));
export type ExportRange = z.infer<typeof exportRangeSchema>;

/**
 * GET /api/time-tracking/export.csv: entries that start on the days `from` to `to` (both
 * included, the organisation's days); `userId` narrows a manager's export to one person.
 */
export const exportTimeEntriesQuerySchema = checkedRange(
  z.object({ orgId, from: day, to: day, userId }),
);
export type ExportTimeEntriesQuery = z.infer<typeof exportTimeEntriesQuerySchema>;
