import { z } from 'zod';
import { crmMessages } from './crm.messages.ts';

export const TAG_MAX_LENGTH = 60;
export const TAGS_PER_CUSTOMER_MAX = 50;

/**
 * A customer's tag, wherever it is written: the roster document a device pushes, the CRM's
 * PUT …/tags, the form on the profile. spec §5: never empty, no commas (tags travel in CSV
 * cells, comma-separated). A refinement, not a pattern, so the RxDB schema derived from the
 * roster document is unchanged.
 */
export const customerTagSchema = z
  .string()
  .min(1)
  .max(TAG_MAX_LENGTH)
  .refine((tag) => !tag.includes(','), crmMessages.tagHasComma);

export const customerTagsSchema = z.array(customerTagSchema).max(TAGS_PER_CUSTOMER_MAX);

/** What is wrong with a tag typed in a form, in the words the server would refuse it with. */
export function customerTagProblem(tag: string): string | null {
  return customerTagSchema.safeParse(tag).error?.issues[0]?.message ?? null;
}
