import {
  validateChildResponseSchema,
  type ValidateChildResponse,
} from '@platform/schema/families/families.zod';
import type { ChildEntry } from '@platform/schema/auth/auth.zod';
import { api } from '../../../lib/api.ts';

/**
 * spec §7 POST /api/auth/create-account, action validate-child: the server's checks (emails
 * taken or repeated) before anything is created. The guardian has an account already, so
 * only the children are checked.
 */
export function validateChildren(children: ChildEntry[]): Promise<ValidateChildResponse> {
  return api('/api/auth/create-account', {
    json: { action: 'validate-child', children, validateChildrenOnly: true },
    schema: validateChildResponseSchema,
  });
}
