import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  ToastContext,
  type Toast,
  type ToastApi,
  type ToastOptions,
  type ToastVariant,
} from './toast-context.ts';
import { ToastItem } from './toast-item.tsx';

/** spec §4 Toast: one polite live region; each toast hides itself or on click. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)),
    [],
  );
  const show = useCallback(
    (message: string, variant: ToastVariant = 'info', options: ToastOptions = {}) => {
      const id = nextId.current++;
      setToasts((list) => [...list, { ...options, id, message, variant }]);
      return id;
    },
    [],
  );
  const api = useMemo<ToastApi>(
    () => ({
      show,
      dismiss,
      success: (message, options) => show(message, 'success', options),
      error: (message, options) => show(message, 'error', options),
    }),
    [show, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toast-region" role="status" aria-live="polite" aria-label="Notifications">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onRemoved={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}
