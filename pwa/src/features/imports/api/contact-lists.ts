import {
  contactListsByKey,
  contactListsResponseSchema,
} from '@platform/schema/crm/contact-lists.zod';
import type { ImportContext } from '@platform/schema/imports/import-rules';
import { api } from '../../../lib/api.ts';

/**
 * The organisation's contact lists by lower-case name, as the server's check reads them
 * (contact lists are server state, not on the device): what the preview's rules need.
 */
export async function contactListsForPreview(): Promise<ImportContext['contactLists']> {
  const { lists } = await api('/api/contact-lists', { schema: contactListsResponseSchema });
  return contactListsByKey(lists);
}
