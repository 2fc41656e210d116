import {
  contactListMembersResponseSchema,
  contactListSchema,
  contactListsResponseSchema,
  customerContactListsResponseSchema,
  type ContactList,
  type ContactListMembersResponse,
  type CustomerContactListsResponse,
} from '@platform/schema/crm/contact-lists.zod';
import { api } from '../../../lib/api.ts';

/* Contact lists (issue 17): server state, online only. Shapes in contact-lists.zod.ts. */

const listPath = (id: string) => `/api/contact-lists/${encodeURIComponent(id)}`;
const memberPath = (id: string, userId: string) =>
  `${listPath(id)}/members/${encodeURIComponent(userId)}`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /api/contact-lists: the organisation's lists with member counts, by name. */
export async function getContactLists(signal?: AbortSignal): Promise<ContactList[]> {
  const answer = await api('/api/contact-lists', {
    schema: contactListsResponseSchema,
    ...withSignal(signal),
  });
  return answer.lists;
}

/** POST /api/contact-lists (409 when the name is taken in any letter case). */
export function createContactList(name: string): Promise<ContactList> {
  return api('/api/contact-lists', { json: { name }, schema: contactListSchema });
}

/** PATCH /api/contact-lists/:id */
export function renameContactList(id: string, name: string): Promise<ContactList> {
  return api(listPath(id), { method: 'PATCH', json: { name }, schema: contactListSchema });
}

/** DELETE /api/contact-lists/:id: the list and who was on it (the customers stay). */
export async function deleteContactList(id: string): Promise<void> {
  await api(listPath(id), { method: 'DELETE' });
}

/** GET /api/contact-lists/:id/members: the list and its members as the roster names them. */
export function getContactListMembers(
  id: string,
  signal?: AbortSignal,
): Promise<ContactListMembersResponse> {
  return api(`${listPath(id)}/members`, {
    schema: contactListMembersResponseSchema,
    ...withSignal(signal),
  });
}

/** PUT /api/contact-lists/:id/members/:userId: already on it is the same answer. */
export async function addContactListMember(id: string, userId: string): Promise<void> {
  await api(memberPath(id, userId), { method: 'PUT' });
}

/** DELETE /api/contact-lists/:id/members/:userId: not on it is the same answer. */
export async function removeContactListMember(id: string, userId: string): Promise<void> {
  await api(memberPath(id, userId), { method: 'DELETE' });
}

/** GET /api/customers/:userId/contact-lists: the lists one customer is on. */
export function getCustomerContactLists(
  userId: string,
  signal?: AbortSignal,
): Promise<CustomerContactListsResponse> {
  return api(`/api/customers/${encodeURIComponent(userId)}/contact-lists`, {
    schema: customerContactListsResponseSchema,
    ...withSignal(signal),
  });
}
