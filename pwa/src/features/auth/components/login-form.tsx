import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { loginFormSchema, type LoginForm as LoginFormValues } from '@platform/schema/auth/auth.zod';
import { describeLoginFailure, logIn, type LoginFailure } from '../api/log-in.ts';
import type { AuthQuery } from '../auth-query.ts';
import { FormAlert } from './form-alert.tsx';
import { SubmitButton } from './submit-button.tsx';
import { TextField } from './text-field.tsx';

type LoginFormProps = { query: AuthQuery; verifiedEmail: string };

/** spec §2 /auth/login form and §4 Login: idle, submitting, then redirect or an alert. */
export function LoginForm({ query, verifiedEmail }: LoginFormProps) {
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { identifier: verifiedEmail, password: '' },
  });
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setSubmitting(true);
    try {
      const path = await logIn({
        ...values,
        // A branded app (orgId) signs in as that organisation's customer (spec §3 Login request).
        ...(query.orgId
          ? { profileType: 'use-customer', profileOrgId: query.orgId }
          : { profileType: 'use-latest' }),
        ...(query.redirectTo ? { redirectTo: query.redirectTo } : {}),
      });
      // A full load, so the whole app starts again with the new session. The button stays
      // busy until the next page replaces this one.
      window.location.assign(path);
    } catch (error) {
      setFailure(describeLoginFailure(error));
      setSubmitting(false);
    }
  });

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {failure && <FormAlert title={failure.title}>{failure.body}</FormAlert>}
      <TextField
        label="Username or email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errors.identifier?.message}
        {...form.register('identifier')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.password?.message}
        {...form.register('password')}
      />
      <p className="auth-form__aside">
        <Link to="/auth/forgot-password">Forgot your password?</Link>
      </p>
      <SubmitButton
        state={submitting ? 'loading' : 'idle'}
        labels={{ idle: 'Sign in', loading: 'Signing in…' }}
      />
    </form>
  );
}
