import { useMemo } from 'react';
import { orgBrandingDocSchema } from '@platform/schema/branding/branding.zod';
import { useLiveQuery } from '../../db/use-live-query.ts';
import { organizationBranding, type Branding } from '../../lib/branding.ts';
import { useAccountSync } from '../../sync/sync-context.tsx';

/**
 * The organisation's branding as replicated to this device (issue 5: the branded app opens
 * offline with the last synced data, and follows staff's changes live). Null until replicated.
 */
export function useReplicatedBranding(orgId: string | null): Branding | null {
  const db = useAccountSync().sync?.db ?? null;
  const live = useLiveQuery(db, 'org-branding', { selector: { id: orgId ?? '' } });
  const doc = live.documents[0];
  return useMemo(() => {
    const parsed = doc ? orgBrandingDocSchema.safeParse(doc) : null;
    return parsed?.success ? organizationBranding(parsed.data) : null;
  }, [doc]);
}
