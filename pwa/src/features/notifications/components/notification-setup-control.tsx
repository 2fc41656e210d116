import { notificationMessages as m } from '@platform/schema/notifications/notifications.messages';
import type { SetupState } from '../notification-state.ts';

const explanations: Partial<Record<SetupState, string>> = {
  unsupported: m.unsupported,
  unavailable: m.unavailable,
  blocked: m.blocked,
};

/** The control itself: a button while notifications can be turned on, else a sentence why not. */
export function NotificationSetupControl({
  state,
  onTurnOn,
}: {
  state: SetupState;
  onTurnOn: () => void;
}) {
  if (state === 'on') {
    return (
      <p className="notification-setup-status" role="status">
        {m.on}
      </p>
    );
  }
  const explanation = explanations[state];
  if (explanation) return <p className="notification-setup-note">{explanation}</p>;
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={state === 'checking' || state === 'turning-on'}
        onClick={onTurnOn}
      >
        {state === 'turning-on' ? m.turningOn : m.turnOn}
      </button>
      {state === 'failed' && (
        <p className="notification-setup-note" role="alert">
          {m.failed}
        </p>
      )}
    </>
  );
}
