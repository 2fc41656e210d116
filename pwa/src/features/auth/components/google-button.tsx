import { withQuery } from '../auth-query.ts';

type GoogleTarget = {
  redirectTo?: string | undefined;
  /** The organisation step of the signup form, for a new Google user who runs a business. */
  orgFields?: { companyName: string } | undefined;
  /** The branded app the person is in: a new Google account becomes its customer. */
  orgId?: string | undefined;
};

/**
 * /auth/login-with-google offers Google's own button when the server has a client id and
 * explains otherwise — so no Google script loads on any other page.
 */
export function googleLoginPath({ redirectTo, orgFields, orgId }: GoogleTarget): string {
  return withQuery('/auth/login-with-google', {
    redirectTo,
    orgFields: orgFields ? JSON.stringify(orgFields) : undefined,
    orgId,
  });
}

/**
 * Opens that page as a full page load: only its own document's Content-Security-Policy
 * allows Google's origins (schema/src/app/outside-services.rules.ts), so a client-side
 * navigation from here would leave GIS blocked.
 */
export function openGoogleLoginPage(target: GoogleTarget): void {
  window.location.assign(googleLoginPath(target));
}

type GoogleButtonProps = GoogleTarget & {
  label: 'Sign in with Google' | 'Sign up with Google';
  /** As a submit button the surrounding form validates first and decides where to go. */
  submit?: boolean;
};

export function GoogleButton({ label, submit = false, ...target }: GoogleButtonProps) {
  return (
    <button
      type={submit ? 'submit' : 'button'}
      name={submit ? 'provider' : undefined}
      value={submit ? 'google' : undefined}
      className="auth-button auth-button--google"
      onClick={submit ? undefined : () => openGoogleLoginPage(target)}
    >
      <GoogleMark />
      {label}
    </button>
  );
}

function GoogleMark() {
  return (
    <svg
      className="auth-google-mark"
      viewBox="0 0 48 48"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.2l7.9 6.2C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.8c4.3-4 6.9-9.9 6.9-17.2z"
      />
      <path
        fill="#FBBC05"
        d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.2C1 16.6 0 20.2 0 24s1 7.4 2.7 10.8l7.9-6.2z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.8c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.2C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}
