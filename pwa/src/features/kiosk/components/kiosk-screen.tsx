import { useEffect, useState } from 'react';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { SyncState } from '../../../sync/replication.ts';
import { useKioskSync } from '../hooks/use-kiosk-sync.ts';
import { forgetKiosk } from '../kiosk-store.ts';
import { removeKioskData } from '../kiosk-sync.ts';
import { pendingText } from '../kiosk-texts.ts';
import { ClockPanel } from './clock-panel.tsx';
import { LeaveKioskForm } from './leave-kiosk-form.tsx';
import { PinForm } from './pin-form.tsx';
import { StaffPicker } from './staff-picker.tsx';

type Step =
  | { kind: 'pick' }
  | { kind: 'pin'; person: KioskStaffMember }
  | { kind: 'clock'; person: KioskStaffMember }
  | { kind: 'leave' };

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
 * The front-desk time clock: tap your name, enter your PIN, make your move. Works with no
 * network; the header says how many moves wait to be sent.
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
  const backToList = () => setStep({ kind: 'pick' });
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
          <p className="kiosk-muted">Time clock</p>
        </div>
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
        {step.kind === 'pick' && (
          <StaffPicker staff={kiosk.staff} onPick={(person) => setStep({ kind: 'pin', person })} />
        )}
        {step.kind === 'pin' && (
          <PinForm
            kiosk={kiosk}
            person={step.person}
            onVerified={() => setStep({ kind: 'clock', person: step.person })}
            onBack={backToList}
            onKioskEnded={onCredentialRejected}
          />
        )}
        {step.kind === 'clock' && (
          <ClockPanel
            status={status}
            kiosk={kiosk}
            db={sync?.db ?? null}
            person={step.person}
            onDone={backToList}
          />
        )}
        {step.kind === 'leave' && (
          <LeaveKioskForm kiosk={kiosk} pending={pending} onCancel={backToList} onLeft={leave} />
        )}
      </main>
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
