import { Link, useSearchParams } from 'react-router';
import { googleMessages } from '@platform/schema/auth/auth.messages';
import { googleLoginErrors } from '@platform/schema/auth/google.zod';
import { readAuthQuery, withQuery } from '../auth-query.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { FormAlert } from '../components/form-alert.tsx';
import { GoogleButton } from '../components/google-button.tsx';
import { GoogleOption } from '../components/google-option.tsx';
import { LoginForm } from '../components/login-form.tsx';

/** spec §2 /auth/login: redirectTo, verifiedEmail, preventOrgFields, siteKey, orgId, error. */
export function LoginPage() {
  const [params] = useSearchParams();
  const query = readAuthQuery(params);
  const googleError = googleErrorMessage(params.get('error'));
  const signupLink = withQuery('/auth/signup', {
    redirectTo: query.redirectTo,
    orgId: query.orgId,
    preventOrgFields: query.preventOrgFields,
  });
  return (
    <AuthCard title="Log in to your account">
      {googleError && <FormAlert>{googleError}</FormAlert>}
      <LoginForm query={query} verifiedEmail={params.get('verifiedEmail') ?? ''} />
      <GoogleOption>
        <GoogleButton
          label="Sign in with Google"
          redirectTo={query.redirectTo}
          orgId={query.orgId}
        />
      </GoogleOption>
      <p className="auth-card__footer">
        <Link to={signupLink}>Don&apos;t have an account? Sign up</Link>
      </p>
    </AuthCard>
  );
}

function googleErrorMessage(error: string | null): string | null {
  if (error === googleLoginErrors.invalid) return googleMessages.invalidToken;
  if (error === googleLoginErrors.unavailable) return googleMessages.notConfigured;
  return null;
}
