import { z } from 'zod';

/** Where a client is in a collection's change feed: the last document's position and id. */
export const checkpointSchema = z.object({ id: z.uuid(), lsn: z.number().int().nonnegative() });
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** GET /api/sync/C/pull?id=…&lsn=…&batchSize=… — both id and lsn, or neither (from the start). */
export const pullQuerySchema = z
  .object({
    id: z.uuid().optional(),
    lsn: z.coerce.number().int().nonnegative().optional(),
    batchSize: z.coerce.number().int().min(1).max(1000).default(100),
  })
  .refine((q) => (q.id === undefined) === (q.lsn === undefined), { message: 'id and lsn go together', path: ['lsn'] });

/** A document as it travels: the collection's fields plus the tombstone flag. */
export const withDeleted = <T extends z.ZodObject>(doc: T) => doc.extend({ _deleted: z.boolean() });

export const pushRowSchema = z.object({
  assumedMasterState: z.record(z.string(), z.unknown()).nullable().optional(),
  newDocumentState: z.record(z.string(), z.unknown()),
});
export const pushBodySchema = z.array(pushRowSchema).max(1000);
export type PushRow = z.infer<typeof pushRowSchema>;

/** 422: the whole push was refused and nothing of it applied. */
export const pushRejectionSchema = z.object({ errors: z.array(z.object({ id: z.string(), message: z.string() })) });
export type PushRejection = z.infer<typeof pushRejectionSchema>;

/**
 * The live stream says something at least this often (a heartbeat comment when nothing
 * changed), so proxies keep it open and the device can tell a dead connection from silence.
 */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Silence past two heartbeats and a margin: the device drops the stream and reconnects. */
export const STREAM_SILENCE_LIMIT_MS = 2 * STREAM_HEARTBEAT_MS + 10_000;

/** What the live stream says: a collection changed up to a checkpoint position, or resync. */
export const streamChangeSchema = z.object({ collection: z.string(), lsn: z.number().int() });
export type StreamChange = z.infer<typeof streamChangeSchema>;

/**
 * `event: reconnect` on the live stream: the server is going away on purpose (a restart) and
 * ends the stream; come back after `afterMs` (also sent as the SSE `retry:` field), not at once.
 */
export const STREAM_RECONNECT_EVENT = 'reconnect';
export const streamReconnectSchema = z.object({ afterMs: z.number().int().nonnegative() });
export type StreamReconnect = z.infer<typeof streamReconnectSchema>;
