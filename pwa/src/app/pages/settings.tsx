import { FamilySection } from '../../features/families/components/family-section.tsx';
import { MyDataSection } from '../../features/imports/components/my-data-section.tsx';
import { KioskPinSection } from '../../features/kiosk/components/kiosk-pin-section.tsx';
import { TurnOnNotificationsButton } from '../../features/notifications/components/turn-on-notifications-button.tsx';
import { RequestsSection } from '../../features/requests/components/requests-section.tsx';
import { SettingsPage } from '../../features/settings/pages/settings-page.tsx';
import { useCurrentUser, useSignedInUser } from '../../lib/current-user.ts';

/**
 * /dashboard/settings and /dashboard-customer/{orgId}/settings: the settings page with this
 * device's notification switch and the family (customer view only, spec §6) composed in —
 * features never import each other.
 */
export function Settings() {
  const user = useSignedInUser();
  const { refresh } = useCurrentUser();
  const tracksTime =
    user.view === 'org' &&
    user.claims.some(
      (claim) => claim === 'manage-own-time-tracking' || claim === 'manage-others-time-tracking',
    );
  const family =
    user.view === 'customer' ? (
      <FamilySection
        subject={{ id: user.id, name: user.fullName, email: user.email }}
        knownChildren={user.children}
        // A link came or went: /api/me says who the children are now (Switch accounts too).
        onChanged={() => void refresh()}
      />
    ) : undefined;
  // Only the account's owner answers requests: not a guardian or admin switched into it.
  const ownSession = user.allowReturnTo === null;
  return (
    <SettingsPage
      requests={
        ownSession ? (
          <RequestsSection userId={user.id} onAnswered={() => void refresh()} />
        ) : undefined
      }
      notificationsAction={<TurnOnNotificationsButton userId={user.id} />}
      family={family}
      // Staff clock in at the front-desk kiosk with a PIN of their own; everyone may take their
      // own data with them.
      extraSections={
        <>
          {tracksTime && <KioskPinSection />}
          <MyDataSection />
        </>
      }
    />
  );
}
