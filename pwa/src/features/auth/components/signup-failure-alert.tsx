import { Link } from 'react-router';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { SUPPORT_EMAIL } from '@platform/schema/app/constants';
import type { SignupFailure } from '../hooks/use-signup-form.ts';
import { FormAlert } from './form-alert.tsx';

/** spec §8 Signup errors. An error about the email most likely means the account exists. */
export function SignupFailureAlert({ failure }: { failure: SignupFailure }) {
  if (failure.kind === 'unknown') {
    return (
      <FormAlert title={signupMessages.unknownError}>
        {signupMessages.unknownErrorBody(SUPPORT_EMAIL)}
      </FormAlert>
    );
  }
  const emailError = failure.errors.find((error) => /email/i.test(error.message));
  if (emailError) {
    return (
      <FormAlert title={emailError.message}>
        <Link to="/auth/forgot-password">Forgot your password?</Link>
      </FormAlert>
    );
  }
  return (
    <FormAlert title={signupMessages.invalidDetails}>
      <ul className="auth-alert__list">
        {failure.errors.map((error) => (
          <li key={`${error.field}:${error.message}`}>{error.message}</li>
        ))}
      </ul>
    </FormAlert>
  );
}
