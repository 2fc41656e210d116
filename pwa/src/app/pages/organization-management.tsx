import { SendTestNotificationButton } from '../../features/notifications/components/send-test-notification-button.tsx';
import { OrganizationManagementPage } from '../../features/organizations/pages/organization-management-page.tsx';

/**
 * The organisation page with what other features add to it (composed here: features never
 * import each other): staff send themselves a test notification from the branding settings.
 */
export function OrganizationManagement() {
  return (
    <OrganizationManagementPage
      testNotification={(orgId) => <SendTestNotificationButton orgId={orgId} />}
    />
  );
}
