import type { ReactNode } from 'react';
import type { ProfileType } from '@platform/schema/auth/auth.zod';

/**
 * spec §7: switching accounts is a form POST to /auth/login with impersonate (the target user;
 * one's own id to change profile). The server answers 303 to redirectTo.
 */
export function SwitchAccountForm({
  impersonate,
  profileType,
  profileOrgId,
  children,
  disabled = false,
  redirectTo = '/dashboard',
  className = 'switch-option',
}: {
  impersonate: string;
  profileType: ProfileType;
  profileOrgId: string | null;
  children: ReactNode;
  disabled?: boolean;
  /** Where the switched session opens; a branded app stays in its own app. */
  redirectTo?: string;
  className?: string;
}) {
  return (
    <form method="post" action="/auth/login" className="switch-form">
      <input type="hidden" name="impersonate" value={impersonate} />
      <input type="hidden" name="profileType" value={profileType} />
      <input type="hidden" name="profileOrgId" value={profileOrgId ?? ''} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className={className} disabled={disabled}>
        {children}
      </button>
    </form>
  );
}
