import { z } from 'zod';

/**
 * Times on the wire and in local documents: ISO-8601 UTC with exactly milliseconds
 * (`Date#toISOString()`), so a document that round-trips through PostgreSQL compares equal —
 * conflict detection depends on it.
 */
export const isoTimeSchema = z.iso.datetime({ precision: 3, offset: false });
export const toIsoTime = (date: Date): string => date.toISOString();
