import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

/** How long a note may be (the form, the REST call and replication share it). */
export const NOTE_MAX = 5000;

/**
 * A staff note on a customer, as replicated to staff devices (issue 7 'Offline at the front
 * desk'): written on the device — also with the network down — and never changed afterwards,
 * so two devices can never disagree about one (decision 0013).
 */
export const customerNoteDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  /** The customer the note is about. */
  userId: z.uuid(),
  body: z.string().trim().min(1).max(NOTE_MAX),
  authorId: z.uuid().nullable(),
  authorName: z.string().max(300),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type CustomerNoteDoc = z.infer<typeof customerNoteDocSchema>;
