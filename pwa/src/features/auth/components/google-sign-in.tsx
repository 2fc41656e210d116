import { useEffect, useRef, useState } from 'react';
import { googleMessages } from '@platform/schema/auth/auth.messages';
import { withQuery } from '../auth-query.ts';
import { postForm } from '../../../lib/post-form.ts';
import { loadGoogleIdentity } from '../google/google-identity.ts';
import { FormAlert } from './form-alert.tsx';

type GoogleSignInProps = {
  clientId: string;
  redirectTo: string | undefined;
  orgFields: string | undefined;
  /** The branded app the person came from (customer flow only). */
  orgId?: string | undefined;
};

/**
 * Google's own button. Plain sign-in uses GIS redirect mode: Google posts `credential` to
 * /auth/external/login/google. A new organisation's fields cannot ride along that way, so an
 * organisation signup takes the token in a callback and posts /auth/login-with-google.
 */
export function GoogleSignIn({ clientId, redirectTo, orgFields, orgId }: GoogleSignInProps) {
  const buttonRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity().then(
      (google) => {
        const parent = buttonRef.current;
        if (cancelled || !parent) return;
        if (orgFields) {
          google.accounts.id.initialize({
            client_id: clientId,
            callback: ({ credential }) =>
              postForm('/auth/login-with-google', {
                id_token: credential,
                redirect_to: redirectTo ?? '',
                org_fields: orgFields,
              }),
          });
        } else {
          google.accounts.id.initialize({
            client_id: clientId,
            ux_mode: 'redirect',
            login_uri: `${window.location.origin}${withQuery('/auth/external/login/google', { redirectTo, orgId })}`,
          });
        }
        google.accounts.id.renderButton(parent, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: orgFields ? 'signup_with' : 'signin_with',
        });
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [clientId, redirectTo, orgFields, orgId]);

  if (failed) return <FormAlert>{googleMessages.loadFailed}</FormAlert>;
  return <div ref={buttonRef} className="auth-google-slot" />;
}
