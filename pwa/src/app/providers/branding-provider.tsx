import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { brandedOrgIdOf } from '@platform/schema/branding/branded-path.rules';
import { publicBrandingSchema } from '@platform/schema/branding/branding.zod';
import { api } from '../../lib/api.ts';
import {
  BrandingContext,
  BrandingSettledContext,
  organizationBranding,
  platformBranding,
  type Branding,
} from '../../lib/branding.ts';
import { applyBrandingToDocument } from './apply-branding.ts';

/**
 * The brand of the page being shown: an organisation's on its branded pages (its customer app
 * and sign-in pages carrying its id), the platform's elsewhere. The answer comes from the
 * network, or offline from the service worker's copy; signed-in customer pages refine it with
 * the replicated branding (CustomerShell).
 */
export function BrandingProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const orgId = brandedOrgIdOf(location.pathname, location.search);
  const [loaded, setLoaded] = useState<Branding | null>(null);
  const [failedOrgId, setFailedOrgId] = useState<string | null>(null);

  useEffect(() => {
    if (!orgId) return;
    const controller = new AbortController();
    api(`/api/branding/${orgId}`, { schema: publicBrandingSchema, signal: controller.signal })
      .then((branding) => setLoaded(organizationBranding(branding)))
      // Unknown organisation, or offline without a copy: the platform's own look.
      .catch(() => {
        if (!controller.signal.aborted) setFailedOrgId(orgId);
      });
    return () => controller.abort();
  }, [orgId]);

  const branding = orgId && loaded?.orgId === orgId ? loaded : platformBranding;
  const settled = !orgId || loaded?.orgId === orgId || failedOrgId === orgId;
  return (
    <BrandingSettledContext.Provider value={settled}>
      <BrandingScope branding={branding}>{children}</BrandingScope>
    </BrandingSettledContext.Provider>
  );
}

/** Provides a branding and puts it on the document (manifest, theme colour, accent). */
export function BrandingScope({ branding, children }: { branding: Branding; children: ReactNode }) {
  useEffect(() => applyBrandingToDocument(branding), [branding]);
  return <BrandingContext.Provider value={branding}>{children}</BrandingContext.Provider>;
}
