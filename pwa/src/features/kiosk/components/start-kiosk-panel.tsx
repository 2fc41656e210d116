import { useState } from 'react';
import { Link } from 'react-router';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { hasAnyClaim, kioskClaims } from '@platform/schema/organizations/claims';
import { PageLoading } from '../../../components/page-loading.tsx';
import { removeAccountDatabases } from '../../../db/database.ts';
import { ApiError } from '../../../lib/api.ts';
import { forgetCachedUser, useCurrentUser } from '../../../lib/current-user.ts';
import { startKiosk } from '../api/start-kiosk.ts';

/** /auth/kiosk-mode on a device that is not a kiosk: who may start one, and starting it. */
export function StartKioskPanel({
  notice,
  onStarted,
}: {
  notice: string | null;
  onStarted: (kiosk: Kiosk) => void;
}) {
  const current = useCurrentUser();
  return (
    <main id="main" className="page-centre kiosk-start">
      <h1>Kiosk mode</h1>
      {notice && <p role="status">{notice}</p>}
      {current.status === 'signed-in' ? (
        <StartFor user={current.user} onStarted={onStarted} refreshUser={current.refresh} />
      ) : current.status === 'signed-out' ? (
        <p>
          A staff member who may start kiosk mode signs in first.{' '}
          <Link to="/auth/login?redirectTo=%2Fauth%2Fkiosk-mode">Log in</Link>
        </p>
      ) : current.status === 'loading' ? (
        <PageLoading />
      ) : (
        <p role="alert">Starting kiosk mode needs a connection.</p>
      )}
    </main>
  );
}

function StartFor({
  user,
  onStarted,
  refreshUser,
}: {
  user: CurrentUser;
  onStarted: (kiosk: Kiosk) => void;
  refreshUser: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const org = user.view === 'org' ? user.org : null;
  if (!org || !hasAnyClaim(user.claims, kioskClaims)) {
    return (
      <>
        <p role="alert">{kioskMessages.startNotAllowed}</p>
        <p>
          <Link to="/dashboard">Back to the dashboard</Link>
        </p>
      </>
    );
  }

  async function start(orgId: string) {
    setBusy(true);
    setProblem(null);
    try {
      const kiosk = await startKiosk({ orgId });
      // Signed out here: the staff member's cached account and offline data leave the device.
      await Promise.allSettled([
        forgetCachedUser(),
        Promise.race([
          removeAccountDatabases(user.id),
          new Promise((resolve) => setTimeout(resolve, 3000)),
        ]),
      ]);
      onStarted(kiosk);
      void refreshUser();
    } catch (error) {
      setProblem(
        error instanceof ApiError ? error.message : 'Starting kiosk mode needs a connection.',
      );
      setBusy(false);
    }
  }

  return (
    <>
      <p>
        This device becomes the time clock of <strong>{org.label}</strong>. Staff tap their name and
        enter their personal PIN to clock in, take breaks and clock out — also while the network is
        down.
      </p>
      <p>You will be signed out on this device. Leaving kiosk mode needs your password.</p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => void start(org.id)}
        >
          Start kiosk mode
        </button>
        <Link className="button button-secondary" to="/dashboard">
          Cancel
        </Link>
      </div>
    </>
  );
}
