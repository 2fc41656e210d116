import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';
import { ForgotPasswordForm } from '../components/forgot-password-form.tsx';

/** /auth/forgot-password: emails a reset link (spec §2). */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the email you use to log in and we will send you a link to choose a new password."
    >
      <ForgotPasswordForm initialEmail={params.get('email') ?? ''} />
      <p className="auth-card__footer">
        <Link to="/auth/login">Back to log in</Link>
      </p>
    </AuthCard>
  );
}
