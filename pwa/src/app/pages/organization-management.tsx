import { ExportSection } from '../../features/imports/components/export-section.tsx';
import { SendTestNotificationButton } from '../../features/notifications/components/send-test-notification-button.tsx';
import { OrganizationManagementPage } from '../../features/organizations/pages/organization-management-page.tsx';
import { TeamSection } from '../../features/team/components/team-section.tsx';

/**
 * The organisation page with what other features add to it (composed here: features never
 * import each other): the Team (features/team) for staff with manage-org-staff, and a test
 * notification staff send themselves from the branding settings.
 */
export function OrganizationManagement() {
  return (
    <OrganizationManagementPage
      team={<TeamSection />}
      exportData={<ExportSection />}
      testNotification={(orgId) => <SendTestNotificationButton orgId={orgId} />}
    />
  );
}
