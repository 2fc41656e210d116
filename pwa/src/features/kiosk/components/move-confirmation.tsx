import { useEffect } from 'react';

/** How long the confirmation stays before the kiosk is ready for the next person. */
export const MOVE_CONFIRMATION_MS = 4000;

/**
 * The full-screen answer to a clock move, readable from across the room ('Sam — clocked in
 * 3:31 PM'). It clears itself after a few seconds, or at a tap.
 */
export function MoveConfirmation({ text, onDone }: { text: string; onDone: () => void }) {
  useEffect(() => {
    const timer = window.setTimeout(onDone, MOVE_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [onDone]);
  return (
    <div className="kiosk-confirmation" role="status" aria-live="assertive">
      <button type="button" className="kiosk-confirmation-button" onClick={onDone} autoFocus>
        <span className="kiosk-confirmation-text">{text}</span>
        <span className="kiosk-confirmation-hint">Tap to continue</span>
      </button>
    </div>
  );
}
