import { createContext, useContext } from 'react';

export type ToastVariant = 'success' | 'error' | 'info';
export type ToastAction = { label: string; onClick: () => void };
export type ToastOptions = {
  /** Milliseconds before it hides itself; Infinity keeps it until clicked. Default TOAST_DURATION_MS. */
  duration?: number;
  action?: ToastAction;
};
export type Toast = ToastOptions & { id: number; message: string; variant: ToastVariant };

export type ToastApi = {
  show: (message: string, variant?: ToastVariant, options?: ToastOptions) => number;
  success: (message: string, options?: ToastOptions) => number;
  error: (message: string, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
};

export const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs <ToastProvider>');
  return api;
}
