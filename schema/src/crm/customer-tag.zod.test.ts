import { describe, expect, it } from 'vitest';
import { rosterItemDocSchema } from '../roster/roster-item.zod.ts';
import { crmMessages } from './crm.messages.ts';
import { setTagsRequestSchema } from './crm.zod.ts';
import { customerTagProblem } from './customer-tag.zod.ts';

describe('customer tags (spec §5: no commas)', () => {
  it('refuses a comma in the form, the CRM request and the replicated roster item alike', () => {
    expect(customerTagProblem('vip,am')).toBe(crmMessages.tagHasComma);
    expect(customerTagProblem('vip')).toBeNull();
    const request = setTagsRequestSchema.safeParse({ tags: ['ok', ' a,b '] });
    expect(request.error?.issues).toEqual([
      expect.objectContaining({ path: ['tags', 1], message: crmMessages.tagHasComma }),
    ]);
    const doc = rosterItemDocSchema.shape.tags.safeParse(['a,b']);
    expect(doc.error?.issues[0]?.message).toBe(crmMessages.tagHasComma);
  });

  it('keeps trimming request tags before the rule', () => {
    expect(setTagsRequestSchema.parse({ tags: [' vip '] })).toEqual({ tags: ['vip'] });
    expect(setTagsRequestSchema.safeParse({ tags: ['  '] }).success).toBe(false);
  });
});
