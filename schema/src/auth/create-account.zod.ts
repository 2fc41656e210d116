import { z } from 'zod';
import {
  attachChildRequestSchema,
  createChildrenRequestSchema,
  validateChildRequestSchema,
} from '../families/families.zod.ts';
import { signupDtoSchema } from './auth.zod.ts';

/** spec §7 POST /api/auth/create-account: signup, or a family action, named by `action`. */
export const createAccountRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('signup'), signupDto: signupDtoSchema }),
  validateChildRequestSchema,
  createChildrenRequestSchema,
  attachChildRequestSchema,
]);
export type CreateAccountRequest = z.infer<typeof createAccountRequestSchema>;

/** The actions answered in the families' form shape (`{ message, errors }`), signup in its own. */
export const familyAccountActions = [
  'validate-child',
  'create-children',
  'attach-child-to-guardian',
] as const;
