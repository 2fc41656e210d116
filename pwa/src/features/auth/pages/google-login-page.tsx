import { Link, useSearchParams } from 'react-router';
import { googleMessages, loginMessages, offlineMessage } from '@platform/schema/auth/auth.messages';
import { readAuthQuery, withQuery } from '../auth-query.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { FormAlert } from '../components/form-alert.tsx';
import { GoogleSignIn } from '../components/google-sign-in.tsx';
import { useAuthConfig } from '../hooks/use-auth-config.ts';

/** /auth/login-with-google: Google's button when the server is configured for it. */
export function GoogleLoginPage() {
  const [params] = useSearchParams();
  const redirectTo = params.get('redirectTo') ?? undefined;
  const orgFields = params.get('orgFields') ?? undefined;
  const orgId = readAuthQuery(params).orgId;
  const config = useAuthConfig();
  return (
    <AuthCard title="Sign in with Google">
      {config.status === 'loading' && (
        <p role="status" className="auth-card__note">
          Checking Google sign-in…
        </p>
      )}
      {config.status === 'failed' && (
        <FormAlert>{config.offline ? offlineMessage : loginMessages.unexpected}</FormAlert>
      )}
      {config.status === 'ready' &&
        (config.googleClientId ? (
          <GoogleSignIn
            clientId={config.googleClientId}
            redirectTo={redirectTo}
            orgFields={orgFields}
            orgId={orgId}
          />
        ) : (
          <FormAlert>{googleMessages.notConfigured}</FormAlert>
        ))}
      <p className="auth-card__footer">
        <Link to={withQuery('/auth/login', { redirectTo, orgId })}>Back to log in</Link>
      </p>
    </AuthCard>
  );
}
