import { z } from 'zod';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { clockStatuses } from './time-clock.rules.ts';
import { breakIntervalSchema, timeEntryDocSchema } from './time-entry.zod.ts';

// spec §7 POST /api/time-tracking: `action` names the operation and its payload sits beside it;
// every payload carries the organisation it acts in.
const orgId = z.uuid();
/** Whose clock or entries; omitted means the caller's own (others need manage-others-time-tracking). */
const userId = z.uuid().optional();

/** `at`: when the move happened — an offline device sends it later; the server uses its own time without it. */
const clockAction = <A extends string>(action: A) => z.object({ action: z.literal(action), orgId, userId, at: isoTimeSchema.optional() });

export const clockInInputSchema = clockAction('clock-in');
export const clockOutInputSchema = clockAction('clock-out');
export const startBreakInputSchema = clockAction('start-break');
export const endBreakInputSchema = clockAction('end-break');
export type ClockActionInput = z.infer<typeof clockInInputSchema | typeof clockOutInputSchema | typeof startBreakInputSchema | typeof endBreakInputSchema>;

export const getCurrentStatusInputSchema = z.object({ action: z.literal('get-current-status'), orgId, userId });
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
  timeEntry: z.object({ ...entryTimes, breakIntervals: entryTimes.breakIntervals.default([]), userId }),
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
  .refine((input) => (input.entryId ?? input.deleteData?.entryId) !== undefined, { message: 'entryId is required', path: ['entryId'] });
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
  activeEntry: z.object({ id: z.uuid(), startTime: isoTimeSchema, breakIntervals: z.array(breakIntervalSchema) }).nullable(),
});
export const timeEntriesAnswerSchema = z.object({ entries: z.array(timeEntryDocSchema) });
export const deletedAnswerSchema = z.object({ ok: z.literal(true) });
