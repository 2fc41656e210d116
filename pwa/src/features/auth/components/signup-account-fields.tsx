import type { UseFormReturn } from 'react-hook-form';
import type { SignupFormInput, SignupFormOutput } from '@platform/schema/auth/signup-form.rules';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { TextField } from './text-field.tsx';

type SignupAccountFieldsProps = {
  form: UseFormReturn<SignupFormInput, unknown, SignupFormOutput>;
  /** spec §5: read-only when prefilled from an invitation. */
  emailReadOnly: boolean;
};

/** Email, password twice, and the person's name (spec §2 'Details'). */
export function SignupAccountFields({ form, emailReadOnly }: SignupAccountFieldsProps) {
  const { errors } = form.formState;
  const register = trimmedRegister(form);
  return (
    <>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        readOnly={emailReadOnly}
        hint={emailReadOnly ? 'This is the address your invitation was sent to.' : undefined}
        error={errors.email?.message}
        {...register('email')}
      />
      {/* Passwords are not trimmed: a space may be part of someone's password. */}
      <NewPasswordFields
        label="Password"
        password={form.register('password')}
        confirm={form.register('confirmPassword')}
        errors={{ password: errors.password?.message, confirm: errors.confirmPassword?.message }}
      />
      <div className="auth-form__row">
        <TextField
          label="First name"
          autoComplete="given-name"
          required
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          required
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
    </>
  );
}
