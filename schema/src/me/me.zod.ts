import { z } from 'zod';
import { platforms } from '../organizations/claims.ts';

/** spec §3 Current user, plus what the shell needs to draw the right navigation. */
export const currentUserSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  role: z.enum(['admin', 'user']),
  view: z.enum(['org', 'customer']),
  // timezone: spec §3 Org attributes.timezone — times are shown in it (null: the device's).
  org: z
    .object({ id: z.uuid(), label: z.string(), platform: z.enum(platforms), timezone: z.string().nullable() })
    .nullable(),
  attributes: z.object({
    sidebarExpanded: z.boolean(),
    profileAvatarImageUrl: z.string().nullable(),
  }),
  // spec §3 names only `name`; the id lets 'Return to parent account' post the switch form.
  allowReturnTo: z.object({ name: z.string(), id: z.uuid() }).nullable(),
  claims: z.array(z.string()),
  /** Accounts the user may switch to (spec §2 Switch accounts). */
  profiles: z.array(
    z.object({ orgId: z.uuid(), label: z.string(), view: z.enum(['org', 'customer']) }),
  ),
  /** Children whose owner confirmed this guardian: the ones the user may switch to (decision 0035). */
  children: z.array(z.object({ id: z.uuid(), fullName: z.string() })),
  /**
   * Answers waiting for the account's owner: organisations' invitations and guardian links to
   * confirm (0 in a switched session, which cannot answer them).
   */
  pendingRequests: z.number().int().min(0).default(0),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** POST /api/me/attributes: preferences the user may change (lastProfile is the server's). */
export const updateMeAttributesInputSchema = z.object({ sidebarExpanded: z.boolean() });
export type UpdateMeAttributesInput = z.infer<typeof updateMeAttributesInputSchema>;
