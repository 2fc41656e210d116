import type { ReactNode } from 'react';

type FormAlertProps = {
  tone?: 'error' | 'success' | 'info';
  title?: string | undefined;
  children?: ReactNode;
};

/** Errors interrupt (role="alert"); successes and notes are polite (role="status"). */
export function FormAlert({ tone = 'error', title, children }: FormAlertProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`auth-alert auth-alert--${tone}`}>
      {title && <p className="auth-alert__title">{title}</p>}
      {children && <div className="auth-alert__body">{children}</div>}
    </div>
  );
}
