import type { UseFormRegisterReturn } from 'react-hook-form';
import { PASSWORD_MIN_LENGTH } from '@platform/schema/app/constants';
import { TextField } from './text-field.tsx';

type NewPasswordFieldsProps = {
  /** 'Password' at signup, 'New password' when resetting. */
  label: string;
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: string | undefined; confirm?: string | undefined };
};

/** A new password typed twice (spec §5: 8 characters, 'Passwords do not match.'). Not trimmed. */
export function NewPasswordFields({ label, password, confirm, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.password}
        {...password}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirm}
        {...confirm}
      />
    </>
  );
}
