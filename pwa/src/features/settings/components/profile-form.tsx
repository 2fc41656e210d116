import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import {
  profileInputSchema,
  type ProfileInput,
  type ProfileUpdate,
  type Settings,
} from '@platform/schema/settings/settings.zod';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { updateProfile } from '../api/update-profile.ts';
import { settingsFailure } from '../settings-failure.ts';

const fieldNames = ['firstName', 'middleName', 'lastName'] as const;

type Props = { settings: Settings; offline: boolean; onSaved: (settings: Settings) => void };

/** First, middle and last name; the email is shown, not edited here. */
export function ProfileForm({ settings, offline, onSaved }: Props) {
  const form = useForm<ProfileInput, unknown, ProfileUpdate>({
    resolver: zodResolver(profileInputSchema),
    mode: 'onTouched',
    defaultValues: {
      firstName: settings.firstName,
      middleName: settings.middleName,
      lastName: settings.lastName,
    },
  });
  const register = trimmedRegister(form);
  const [notice, setNotice] = useState<Notice | null>(null);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    setNotice(null);
    try {
      const outcome = await updateProfile(input);
      if (!outcome.ok) {
        for (const error of outcome.errors) {
          const field = fieldNames.find((name) => name === error.field);
          form.setError(field ?? 'root', { message: error.message });
        }
        return;
      }
      form.reset({
        firstName: outcome.value.firstName,
        middleName: outcome.value.middleName,
        lastName: outcome.value.lastName,
      });
      setNotice({ tone: 'success', text: settingsMessages.profileSaved });
      onSaved(outcome.value);
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
      <div className="settings-names">
        <TextField
          label="First name"
          autoComplete="given-name"
          required
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Middle name (optional)"
          autoComplete="additional-name"
          error={errors.middleName?.message}
          {...register('middleName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          required
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <TextField
        label="Email"
        type="email"
        value={settings.email ?? ''}
        placeholder="No email on this account"
        readOnly
        hint="Your email is how you sign in; it is not changed here."
      />
      <FormNotice notice={notice} />
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={isSubmitting || offline}
          aria-busy={isSubmitting ? true : undefined}
        >
          {isSubmitting ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}
