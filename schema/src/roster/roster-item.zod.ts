import { z } from 'zod';
import { customerTagsSchema } from '../crm/customer-tag.zod.ts';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

/** spec §3 Roster (CRM) item, as replicated (issue 4 wire contract). */
export const rosterItemDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  athlete: z.object({
    id: z.uuid(),
    fullName: z.string().max(300),
    firstName: z.string().max(150),
    lastName: z.string().max(150),
    email: z.string().max(320).nullable(),
  }),
  phone: z.string().max(40).nullable(),
  tags: customerTagsSchema,
  updatedAt: isoTimeSchema,
});
export type RosterItemDoc = z.infer<typeof rosterItemDocSchema>;
