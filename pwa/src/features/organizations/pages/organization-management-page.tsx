import type { ReactNode } from 'react';
import { TEAM_CLAIM } from '@platform/schema/team/team.rules';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { BrandingSettingsForm } from '../components/branding-settings-form.tsx';
import { CustomerAppLink } from '../components/customer-app-link.tsx';
import { LogoSettings } from '../components/logo-settings.tsx';
import { WaiverSettings } from '../components/waiver-settings.tsx';
import { useBrandingSettings } from '../hooks/use-branding-settings.ts';
import '../organizations.css';

/**
 * /dashboard/organization-management: the organisation's branded customer app (claim
 * manage-org-branding) — name, colours, logo, time zone, and the link customers install from —
 * and its team (claim manage-org-staff). `team` and `testNotification` are composed in by the
 * app (the team and notifications features).
 */
export function OrganizationManagementPage({
  team,
  testNotification,
  exportData,
}: {
  team?: ReactNode;
  testNotification?: (orgId: string) => ReactNode;
  /** 'Export all data' (features/imports), for staff with manage-org-settings. */
  exportData?: ReactNode;
}) {
  const user = useSignedInUser();
  const orgId = user.org?.id ?? '';
  const mayBrand = user.claims.includes('manage-org-branding');
  const mayStaff = user.claims.includes(TEAM_CLAIM);
  const { state: load, update } = useBrandingSettings(orgId, mayBrand);

  return (
    <section className="page organization-management">
      <h1>Organization</h1>
      {!mayBrand ? (
        <p>
          Changing how {user.org?.label ?? 'the organization'}'s customer app looks needs the
          branding permission. Ask the owner of the organization.
        </p>
      ) : load.status === 'loading' ? (
        <PageLoading />
      ) : load.status === 'failed' ? (
        <p className="form-error" role="alert">
          {load.message}
        </p>
      ) : (
        <>
          <section className="card" aria-labelledby="customer-app-heading">
            <h2 id="customer-app-heading">Customer app</h2>
            <p>
              Your customers install this app on their phones. It carries your name, colours and
              logo, and keeps working without a connection.
            </p>
            <CustomerAppLink
              path={load.settings.customerAppPath}
              orgLabel={user.org?.label ?? load.settings.appName}
            />
            {testNotification?.(orgId)}
          </section>
          <section className="card" aria-labelledby="branding-heading">
            <h2 id="branding-heading">Branding</h2>
            <BrandingSettingsForm settings={load.settings} onSaved={update} />
          </section>
          <section className="card" aria-labelledby="logo-heading">
            <h2 id="logo-heading">Logo</h2>
            <LogoSettings settings={load.settings} onChange={update} />
          </section>
        </>
      )}
      {mayStaff && team}
      {user.claims.includes('manage-org-settings') && orgId && exportData}
      {user.claims.includes('manage-org-settings') && orgId && (
        <section className="card" aria-labelledby="waiver-heading">
          <h2 id="waiver-heading">Waiver of liability</h2>
          <WaiverSettings orgId={orgId} />
        </section>
      )}
    </section>
  );
}
