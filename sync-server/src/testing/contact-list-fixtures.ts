import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type {
  ContactList,
  ContactListMembersResponse,
  ContactListsResponse,
} from '@platform/schema/crm/contact-lists.zod';
import type { CookieJar } from './cookie-jar.ts';

/** The contact list calls a staff member's browser makes (issue 17), each expected to succeed. */
export function contactListCalls(app: FastifyInstance) {
  const call = (method: 'GET' | 'POST', url: string, jar: CookieJar, payload?: object) =>
    app.inject({ method, url, headers: jar.headers(), ...(payload ? { payload } : {}) });
  return {
    create: async (jar: CookieJar, name: string) => {
      const res = await call('POST', '/api/contact-lists', jar, { name });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<ContactList>();
    },
    listsOf: async (jar: CookieJar) => {
      const res = await call('GET', '/api/contact-lists', jar);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ContactListsResponse>().lists;
    },
    membersOf: async (jar: CookieJar, listId: string) => {
      const res = await call('GET', `/api/contact-lists/${listId}/members`, jar);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ContactListMembersResponse>();
    },
  };
}

/** Where one person's membership of a list is put (PUT) and taken off (DELETE). */
export const contactListMemberUrl = (listId: string, userId: string) =>
  `/api/contact-lists/${listId}/members/${userId}`;
