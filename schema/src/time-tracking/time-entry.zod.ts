import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

export const breakIntervalSchema = z.object({
  startTime: isoTimeSchema,
  endTime: isoTimeSchema.nullable(),
});

/** A replicated time entry (issue 4 wire contract). `id` is made by the client. */
export const timeEntryDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  userId: z.uuid(),
  startTime: isoTimeSchema,
  endTime: isoTimeSchema.nullable(),
  breakIntervals: z.array(breakIntervalSchema).max(50),
  updatedAt: isoTimeSchema,
});
export type TimeEntryDoc = z.infer<typeof timeEntryDocSchema>;
