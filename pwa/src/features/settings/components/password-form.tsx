import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MIN_LENGTH } from '@platform/schema/app/constants';
import {
  changePasswordFormSchema,
  emptyChangePasswordForm,
  type ChangePasswordForm,
} from '@platform/schema/settings/password-form.rules';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { changePassword } from '../api/change-password.ts';
import { settingsFailure } from '../settings-failure.ts';

const fieldNames = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** Current password, then the new one typed twice (spec §5 signup password rules). */
export function PasswordForm({ offline }: { offline: boolean }) {
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    mode: 'onTouched',
    defaultValues: emptyChangePasswordForm,
  });
  const [notice, setNotice] = useState<Notice | null>(null);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setNotice(null);
    try {
      const outcome = await changePassword({ currentPassword, newPassword });
      if (!outcome.ok) {
        for (const error of outcome.errors) {
          const field = fieldNames.find((name) => name === error.field);
          form.setError(field ?? 'root', { message: error.message }, { shouldFocus: true });
        }
        return;
      }
      form.reset(emptyChangePasswordForm);
      setNotice({ tone: 'success', text: settingsMessages.passwordChanged });
    } catch (error) {
      setNotice({ tone: 'error', text: settingsFailure(error) });
    }
  });

  return (
    <form className="form settings-form" noValidate onSubmit={(event) => void submit(event)}>
      {errors.root && (
        <p className="form-error" role="alert">
          {errors.root.message}
        </p>
      )}
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.currentPassword?.message}
        {...form.register('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.newPassword?.message}
        {...form.register('newPassword', {
          // The confirmation is checked against the new password as it changes.
          onChange: () => {
            if (form.formState.touchedFields.confirmPassword) void form.trigger('confirmPassword');
          },
        })}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirmPassword?.message}
        {...form.register('confirmPassword')}
      />
      <FormNotice notice={notice} />
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={isSubmitting || offline}
          aria-busy={isSubmitting ? true : undefined}
        >
          {isSubmitting ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
