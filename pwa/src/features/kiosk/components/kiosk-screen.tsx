import { useCallback, useEffect, useState } from 'react';
import { orgFormat } from '@platform/schema/organizations/org-format';
import type { ClockAction } from '@platform/schema/time-tracking/time-clock.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { SyncState } from '../../../sync/replication.ts';
import { useKioskSync } from '../hooks/use-kiosk-sync.ts';
import { forgetKiosk } from '../kiosk-store.ts';
import { removeKioskData } from '../kiosk-sync.ts';
import { useTeamClock } from '../hooks/use-team-clock.ts';
import { checkInTexts, moveConfirmationText, pendingText } from '../kiosk-texts.ts';
import { ClassCheckIn } from './class-check-in.tsx';
import { ClockPanel } from './clock-panel.tsx';
import { KioskClock } from './kiosk-clock.tsx';
import { LeaveKioskForm } from './leave-kiosk-form.tsx';
import { MoveConfirmation } from './move-confirmation.tsx';
import { PinForm } from './pin-form.tsx';
import { StaffPicker } from './staff-picker.tsx';

type Step =
  | { kind: 'pick' }
  | { kind: 'pin'; person: KioskStaffMember }
  | { kind: 'clock'; person: KioskStaffMember }
  | { kind: 'leave' };

/** The kiosk's two jobs: the staff's time clock, and checking people in to a class. */
type Mode = 'clock' | 'check-in';

/** A person who walks away mid-way leaves the next one the list, not their clock. */
const IDLE_MS = 60_000;

const connectionLabels: Record<SyncState, string> = {
  online: 'Online',
  syncing: 'Sending…',
  offline: 'Offline',
  'signed-out': 'Kiosk mode ended',
  standby: 'Syncing in another tab',
};

/**
 * The front-desk time clock on a wall tablet: tap your name (each tile says whether that person
 * is in, on break or out), enter your PIN on the keypad, make your move, and read the answer
 * full-screen. Beside it, class check-in (issue 16). Works with no network; the header shows
 * the time and how many moves and check-ins wait to be sent.
 */
export function KioskScreen({
  kiosk,
  onLeft,
  onCredentialRejected,
}: {
  kiosk: Kiosk;
  onLeft: () => void;
  /** The server refused the kiosk's credential: ask it whether kiosk mode has ended. */
  onCredentialRejected: () => void;
}) {
  const { sync, status, error } = useKioskSync(kiosk);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [mode, setMode] = useState<Mode>('clock');
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const backToList = () => setStep({ kind: 'pick' });
  const clearConfirmation = useCallback(() => setConfirmation(null), []);
  const format = orgFormat(kiosk.org.timezone);
  const teamClock = useTeamClock(sync?.db ?? null, kiosk.org.id);
  const moved = (person: KioskStaffMember, action: ClockAction, at: number) => {
    setConfirmation(moveConfirmationText(person.name, action, format.time(at)));
    backToList();
  };
  const pending = status?.pending ?? 0;
  const rejected = status?.state === 'signed-out';

  useEffect(() => {
    if (rejected) onCredentialRejected();
  }, [rejected, onCredentialRejected]);

  useEffect(() => {
    if (step.kind === 'pick') return;
    const timer = setTimeout(() => setStep({ kind: 'pick' }), IDLE_MS);
    return () => clearTimeout(timer);
  }, [step]);

  async function leave() {
    await sync?.stop();
    forgetKiosk(kiosk.id);
    await removeKioskData(kiosk.id);
    onLeft();
  }

  return (
    <div className="kiosk">
      <header className="kiosk-header">
        <div>
          <p className="kiosk-org">{kiosk.org.label}</p>
          <p className="kiosk-muted">
            {mode === 'clock' ? checkInTexts.clockTab : checkInTexts.tab}
          </p>
        </div>
        <KioskClock format={format} />
        <div className="kiosk-sync">
          <p className="kiosk-connection" data-state={status?.state ?? 'starting'}>
            {error ?? (status ? connectionLabels[status.state] : 'Starting…')}
          </p>
          <p className="kiosk-pending" role="status" aria-live="polite">
            {pendingText(pending)}
          </p>
        </div>
      </header>
      <main id="main" className="kiosk-main">
        {step.kind !== 'leave' && (
          <nav className="kiosk-modes" aria-label="Kiosk">
            {(['clock', 'check-in'] as const).map((which) => (
              <button
                key={which}
                type="button"
                className="kiosk-mode"
                aria-pressed={mode === which}
                onClick={() => {
                  setMode(which);
                  backToList();
                }}
              >
                {which === 'clock' ? checkInTexts.clockTab : checkInTexts.tab}
              </button>
            ))}
          </nav>
        )}
        {mode === 'check-in' && step.kind !== 'leave' && (
          <ClassCheckIn kiosk={kiosk} db={sync?.db ?? null} status={status} />
        )}
        {mode === 'clock' && step.kind === 'pick' && (
          <StaffPicker
            staff={kiosk.staff}
            clock={teamClock}
            onPick={(person) => setStep({ kind: 'pin', person })}
          />
        )}
        {mode === 'clock' && step.kind === 'pin' && (
          <PinForm
            kiosk={kiosk}
            person={step.person}
            onVerified={() => setStep({ kind: 'clock', person: step.person })}
            onBack={backToList}
            onKioskEnded={onCredentialRejected}
          />
        )}
        {mode === 'clock' && step.kind === 'clock' && (
          <ClockPanel
            status={status}
            kiosk={kiosk}
            db={sync?.db ?? null}
            person={step.person}
            onDone={backToList}
            onMoved={(action, at) => moved(step.person, action, at)}
          />
        )}
        {step.kind === 'leave' && (
          <LeaveKioskForm kiosk={kiosk} pending={pending} onCancel={backToList} onLeft={leave} />
        )}
      </main>
      {confirmation && <MoveConfirmation text={confirmation} onDone={clearConfirmation} />}
      {step.kind !== 'leave' && (
        <footer className="kiosk-footer">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setStep({ kind: 'leave' })}
          >
            Leave kiosk mode
          </button>
        </footer>
      )}
    </div>
  );
}
