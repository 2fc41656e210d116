import { z } from 'zod';

/*
 * Contact lists (issue 17): named lists of an organisation's customers, managed on the roster,
 * which later marketing features send to. Server state, read online (not replicated). Every path
 * acts on the session's organisation (org view, claim view-customers); a list id of another
 * organisation answers 404, never 403.
 *
 *   GET    /api/contact-lists                          → contactListsResponseSchema (by name)
 *   POST   /api/contact-lists            body contactListRequestSchema → contactListSchema (201)
 *   PATCH  /api/contact-lists/:id        body contactListRequestSchema → contactListSchema
 *   DELETE /api/contact-lists/:id                      → 204
 *   GET    /api/contact-lists/:id/members              → contactListMembersResponseSchema
 *   PUT    /api/contact-lists/:id/members/:userId      → 204 (already a member: the same)
 *   DELETE /api/contact-lists/:id/members/:userId      → 204 (not a member: the same)
 *   GET    /api/customers/:userId/contact-lists        → customerContactListsResponseSchema
 *
 * Errors: 400 `{ message, errors: [{ field, message }] }`; 401 no session; 403 not staff of the
 * organisation with view-customers; 404 contactListMessages.notFound (a list) or the CRM's
 * not-found (a customer); 409 nameTaken; 422 notACustomer.
 */

export const CONTACT_LIST_NAME_MAX = 100;

export const contactListMessages = {
  nameRequired: 'Contact list name is required',
  nameTooLong: `Contact list name must be at most ${CONTACT_LIST_NAME_MAX} characters`,
  /** Names compare case-insensitively: 'Newsletter' is taken by 'newsletter'. */
  nameTaken: (name: string) => `A contact list named ${name} already exists`,
  /** spec §8's CSV message, the same words for the API. */
  notFound: 'Contact list not found',
  notACustomer: 'This person is not a customer of this organisation',
  created: (name: string) => `Contact list ${name} created`,
  renamed: (name: string) => `Contact list renamed to ${name}`,
  deleted: (name: string) => `Contact list ${name} deleted`,
  memberAdded: (person: string, list: string) => `${person} added to ${list}`,
  memberRemoved: (person: string, list: string) => `${person} removed from ${list}`,
} as const;

/** A list's name, trimmed: 1–100 characters. */
/** Characters that show nothing: a name made only of them (and spaces) looks blank. */
const invisible = /[\p{Cf}\p{Z}\s\u115F\u1160\u2800\u3164\uFFA0]/gu;

export const contactListNameSchema = z
  .string({ error: contactListMessages.nameRequired })
  .trim()
  .max(CONTACT_LIST_NAME_MAX, contactListMessages.nameTooLong)
  // Empty once spaces are trimmed, or showing nothing at all (zero-width spaces and the like).
  .refine((name) => name.replace(invisible, '') !== '', contactListMessages.nameRequired);

/**
 * What makes two list names one name, whatever their letter case — the same in the browser, on
 * the server and for every script: upper then lower case (so a Greek final sigma and a sigma,
 * which PostgreSQL's lower() and JavaScript's tell apart, are one letter).
 */
export const contactListKey = (name: string): string => name.toUpperCase().toLowerCase();

/**
 * Lists by name key for the import's rules. Two lists whose names are one key (made before the
 * key was checked) are neither: a row naming them is not found rather than put on either.
 */
export function contactListsByKey(
  lists: Iterable<{ id: string; name: string }>,
): Map<string, { id: string }> {
  const byKey = new Map<string, { id: string }>();
  const twice = new Set<string>();
  for (const list of lists) {
    const key = contactListKey(list.name);
    if (byKey.has(key)) twice.add(key);
    byKey.set(key, { id: list.id });
  }
  for (const key of twice) byKey.delete(key);
  return byKey;
}

export const contactListRequestSchema = z.object({ name: contactListNameSchema });
export type ContactListRequest = z.infer<typeof contactListRequestSchema>;

export const contactListParamsSchema = z.object({ id: z.uuid() });
export const contactListMemberParamsSchema = z.object({ id: z.uuid(), userId: z.uuid() });
export const customerContactListsParamsSchema = z.object({ userId: z.uuid() });

export const contactListSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** Members who are customers now (someone taken off the list of customers is not counted). */
  memberCount: z.number().int().min(0),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactListsResponseSchema = z.object({ lists: z.array(contactListSchema) });
export type ContactListsResponse = z.infer<typeof contactListsResponseSchema>;

/** A member as the organisation's roster names them (never the account's own names). */
export const contactListMemberSchema = z.object({
  userId: z.uuid(),
  rosterId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
});
export type ContactListMember = z.infer<typeof contactListMemberSchema>;

/** The list and its members, by last name then first name. */
export const contactListMembersResponseSchema = z.object({
  list: contactListSchema,
  members: z.array(contactListMemberSchema),
});
export type ContactListMembersResponse = z.infer<typeof contactListMembersResponseSchema>;

/** The lists one customer is on, by name. */
export const customerContactListsResponseSchema = z.object({
  lists: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type CustomerContactListsResponse = z.infer<typeof customerContactListsResponseSchema>;
