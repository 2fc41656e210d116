import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import {
  resetPasswordFormSchema,
  type ResetPasswordForm as ResetPasswordValues,
} from '@platform/schema/auth/signup-form.rules';
import { ApiError } from '../../../lib/api.ts';
import { requestErrorMessage } from '../api/request-error-message.ts';
import { resetPassword } from '../api/reset-password.ts';
import { FormAlert } from './form-alert.tsx';
import { SubmitButton } from './submit-button.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

type Outcome = 'done' | 'invalid-token' | { error: string };

/** Sets a new password with the token from the emailed link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setSaving(true);
    setOutcome(null);
    try {
      await resetPassword({ token, password });
      setOutcome('done');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setOutcome('invalid-token');
      else setOutcome({ error: requestErrorMessage(error) });
    } finally {
      setSaving(false);
    }
  });

  if (outcome === 'done') {
    return (
      <FormAlert tone="success">
        {passwordResetMessages.done} <Link to="/auth/login">Log in</Link>
      </FormAlert>
    );
  }
  if (outcome === 'invalid-token') return <InvalidResetLink />;
  return (
    <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {outcome && <FormAlert>{outcome.error}</FormAlert>}
      <NewPasswordFields
        label="New password"
        password={form.register('password')}
        confirm={form.register('confirmPassword')}
        errors={{ password: errors.password?.message, confirm: errors.confirmPassword?.message }}
      />
      <SubmitButton
        state={saving ? 'loading' : 'idle'}
        labels={{ idle: 'Set new password', loading: 'Saving…' }}
      />
    </form>
  );
}

export function InvalidResetLink() {
  return (
    <FormAlert>
      {passwordResetMessages.invalidToken}{' '}
      <Link to="/auth/forgot-password">Request a new link</Link>
    </FormAlert>
  );
}
