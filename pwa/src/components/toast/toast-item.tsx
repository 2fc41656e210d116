import { useEffect, useState } from 'react';
import { TOAST_DURATION_MS, TOAST_FADE_MS } from '@platform/schema/app/constants';
import type { Toast } from './toast-context.ts';

/** Visible for `duration`, then fades out for TOAST_FADE_MS; a click starts the fade at once. */
export function ToastItem({ toast, onRemoved }: { toast: Toast; onRemoved: (id: number) => void }) {
  const [leaving, setLeaving] = useState(false);
  const duration = toast.duration ?? TOAST_DURATION_MS;

  useEffect(() => {
    if (leaving || !Number.isFinite(duration)) return;
    const timer = window.setTimeout(() => setLeaving(true), duration);
    return () => window.clearTimeout(timer);
  }, [leaving, duration]);

  useEffect(() => {
    if (!leaving) return;
    const timer = window.setTimeout(() => onRemoved(toast.id), TOAST_FADE_MS);
    return () => window.clearTimeout(timer);
  }, [leaving, onRemoved, toast.id]);

  return (
    // Clicking anywhere on a toast dismisses it (spec §4); the close button is the keyboard path.
    <div
      className={`toast toast-${toast.variant}`}
      data-leaving={leaving || undefined}
      onClick={() => setLeaving(true)}
    >
      <p className="toast-message">{toast.message}</p>
      {toast.action && (
        <button
          type="button"
          className="button button-small"
          onClick={(event) => {
            event.stopPropagation();
            toast.action?.onClick();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="toast-close" aria-label="Dismiss notification">
        ×
      </button>
    </div>
  );
}
