import { orgFormat, type OrgFormat } from '@platform/schema/organizations/org-format';
import { useSignedInUser } from './current-user.ts';

/** The signed-in organisation's way of writing times, days and durations (schema org-format.ts). */
export function useOrgFormat(): OrgFormat {
  return orgFormat(useSignedInUser().org?.timezone);
}
