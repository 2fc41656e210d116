import { z } from 'zod';

/**
 * A document id: a UUID in its canonical lower-case form. PostgreSQL compares UUIDs
 * case-insensitively while JavaScript compares strings exactly; accepting only one spelling
 * keeps the two from ever disagreeing about which document an id names.
 */
export const documentIdSchema = z.uuid().refine((id) => id === id.toLowerCase(), 'Ids must be lower-case UUIDs.');
