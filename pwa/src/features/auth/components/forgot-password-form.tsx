import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordInputSchema } from '@platform/schema/auth/auth.zod';
import { requestErrorMessage } from '../api/request-error-message.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { FormAlert } from './form-alert.tsx';
import { SubmitButton } from './submit-button.tsx';
import { TextField } from './text-field.tsx';

type Outcome = { tone: 'success' | 'error'; message: string };

/** Asks for a reset link; the answer never says whether the account exists. */
export function ForgotPasswordForm({ initialEmail }: { initialEmail: string }) {
  const form = useForm<{ email: string }>({
    resolver: zodResolver(forgotPasswordInputSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { email: initialEmail },
  });
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const register = trimmedRegister(form);

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setSending(true);
    setOutcome(null);
    try {
      setOutcome({ tone: 'success', message: await requestPasswordReset(email) });
    } catch (error) {
      setOutcome({ tone: 'error', message: requestErrorMessage(error) });
    } finally {
      setSending(false);
    }
  });

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {outcome && <FormAlert tone={outcome.tone}>{outcome.message}</FormAlert>}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={form.formState.errors.email?.message}
        {...register('email')}
      />
      <SubmitButton
        state={sending ? 'loading' : 'idle'}
        labels={{ idle: 'Send reset link', loading: 'Sending…' }}
      />
    </form>
  );
}
