import type { UpdateMeAttributesInput } from '@platform/schema/me/me.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/me/attributes — remembers the sidebar state for the next visit. */
export async function saveSidebarExpanded(sidebarExpanded: boolean): Promise<void> {
  const input: UpdateMeAttributesInput = { sidebarExpanded };
  await api('/api/me/attributes', { json: input });
}
