import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import { useCurrentUser, useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { NotificationPreferencesForm } from '../components/notification-preferences-form.tsx';
import { PasswordForm } from '../components/password-form.tsx';
import { ProfileForm } from '../components/profile-form.tsx';
import { ProfileSummary } from '../components/profile-summary.tsx';
import { SettingsSection } from '../components/settings-section.tsx';
import { useSettings } from '../hooks/use-settings.ts';
import '../settings.css';

type Props = {
  /** What waits for the owner's answer (features/requests), composed in app/; first on the page. */
  requests?: ReactNode;
  /** This device's notification permission (features/notifications), composed in app/. */
  notificationsAction?: ReactNode;
  /** The family section (customer view only), composed in app/ from features/families. */
  family?: ReactNode;
  /** More sections other features add (the kiosk PIN of staff), each with its own heading. */
  extraSections?: ReactNode;
};

/**
 * /dashboard/settings and /dashboard-customer/{orgId}/settings (spec §2): profile, password and
 * notification preferences need the server; the profile and family still show offline.
 */
export function SettingsPage({ requests, notificationsAction, family, extraSections }: Props) {
  const user = useSignedInUser();
  const { refresh } = useCurrentUser();
  const online = useOnlineStatus();
  const { state, update } = useSettings(online);
  const offline = !online || (state.status === 'failed' && state.offline);
  const settings = state.status === 'ready' ? state.settings : null;

  // Sections wait for the server quietly; offline and failure are said once, at the top.
  const pending = (what: string) =>
    state.status === 'loading' && !offline ? (
      <p className="settings-muted" role="status">
        Loading your {what}…
      </p>
    ) : null;

  return (
    <section className="page settings" aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      {offline ? (
        <p className="settings-offline" role="status">
          {settingsMessages.offline}
        </p>
      ) : (
        state.status === 'failed' && (
          <p className="form-error" role="alert">
            {settingsMessages.loadFailed}
          </p>
        )
      )}
      {requests && (
        <SettingsSection id="settings-requests" title="Requests">
          {requests}
        </SettingsSection>
      )}
      <SettingsSection id="settings-profile" title="Profile">
        {settings ? (
          <ProfileForm
            settings={settings}
            offline={offline}
            onSaved={(saved) => {
              update(saved);
              // The shell shows the name from /api/me.
              void refresh();
            }}
          />
        ) : (
          <>
            <ProfileSummary user={user} />
            {pending('profile')}
          </>
        )}
      </SettingsSection>
      <SettingsSection id="settings-password" title="Password">
        {settings === null ? (
          pending('password settings')
        ) : settings.hasPassword ? (
          <PasswordForm offline={offline} />
        ) : (
          <div className="settings-muted">
            <p>{settingsMessages.noPasswordYet}</p>
            {/* The message asks for an action: the link goes there, the address filled in. */}
            {user.email && (
              <p>
                <Link to={`/auth/forgot-password?email=${encodeURIComponent(user.email)}`}>
                  {settingsMessages.setPasswordByEmail}
                </Link>
              </p>
            )}
          </div>
        )}
      </SettingsSection>
      <SettingsSection id="settings-notifications" title="Notification preferences">
        {notificationsAction && <div className="settings-action">{notificationsAction}</div>}
        {settings ? (
          <NotificationPreferencesForm
            preferences={settings.notificationPreferences}
            offline={offline}
            onSaved={(notificationPreferences) => update({ ...settings, notificationPreferences })}
          />
        ) : (
          pending('notification preferences')
        )}
      </SettingsSection>
      {family && (
        <SettingsSection id="settings-family" title="Family">
          {family}
        </SettingsSection>
      )}
      {extraSections}
    </section>
  );
}
