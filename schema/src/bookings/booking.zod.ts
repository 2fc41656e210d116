import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

export const bookingStatuses = ['booked', 'cancelled', 'attended', 'no-show'] as const;

/** A replicated booking (issue 4 wire contract; the calendar issue adds the rest). */
export const bookingDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  customerUserId: z.uuid(),
  occurrenceId: z.string().min(1).max(100),
  status: z.enum(bookingStatuses),
  updatedAt: isoTimeSchema,
});
export type BookingDoc = z.infer<typeof bookingDocSchema>;
