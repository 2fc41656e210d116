import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';
import { InvalidResetLink, ResetPasswordForm } from '../components/reset-password-form.tsx';

/** /auth/reset-password?token=…: the page the emailed link opens. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <AuthCard title="Choose a new password">
      {token ? <ResetPasswordForm token={token} /> : <InvalidResetLink />}
      <p className="auth-card__footer">
        <Link to="/auth/login">Back to log in</Link>
      </p>
    </AuthCard>
  );
}
