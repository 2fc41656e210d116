import type { ReactNode } from 'react';
import { useGoogleSignInAvailable } from '../hooks/use-auth-config.ts';

/** "or" and a Google button — only when this server has Google sign-in configured. */
export function GoogleOption({ children }: { children: ReactNode }) {
  if (!useGoogleSignInAvailable()) return null;
  return (
    <>
      <p className="auth-divider">
        <span>or</span>
      </p>
      {children}
    </>
  );
}
