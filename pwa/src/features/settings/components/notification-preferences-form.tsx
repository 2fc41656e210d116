import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import type { NotificationPreferences } from '@platform/schema/settings/settings.zod';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import { SwitchField } from '../../../components/form-fields.tsx';
import { updateNotificationPreferences } from '../api/update-notification-preferences.ts';
import { settingsFailure } from '../settings-failure.ts';

const choices: Array<{ name: keyof NotificationPreferences; label: string; hint: string }> = [
  { name: 'bookings', label: 'Bookings', hint: 'Reminders and changes to your bookings.' },
  { name: 'payments', label: 'Payments', hint: 'Receipts, upcoming charges and failed payments.' },
  { name: 'announcements', label: 'Announcements', hint: 'News from the organizations you use.' },
];

type Props = {
  preferences: NotificationPreferences;
  offline: boolean;
  onSaved: (preferences: NotificationPreferences) => void;
};

/** Which notices the person wants; kept in their account, so every device follows them. */
export function NotificationPreferencesForm({ preferences, offline, onSaved }: Props) {
  const form = useForm<NotificationPreferences>({ defaultValues: preferences });
  const [notice, setNotice] = useState<Notice | null>(null);
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setNotice(null);
    try {
      const outcome = await updateNotificationPreferences(values);
      if (!outcome.ok) {
        setNotice({ tone: 'error', text: settingsMessages.failed });
        return;
      }
      form.reset(outcome.value);
      setNotice({ tone: 'success', text: settingsMessages.preferencesSaved });
      onSaved(outcome.value);
    } catch (error) {
      setNotice({ tone: 'error', text: settingsFailure(error) });
    }
  });

  return (
    <form className="form settings-form" noValidate onSubmit={(event) => void submit(event)}>
      <fieldset className="settings-choices">
        <legend>Send me notifications about</legend>
        {choices.map((choice) => (
          <SwitchField
            key={choice.name}
            label={choice.label}
            hint={choice.hint}
            {...form.register(choice.name)}
          />
        ))}
      </fieldset>
      <FormNotice notice={notice} />
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={isSubmitting || offline}
          aria-busy={isSubmitting ? true : undefined}
        >
          {isSubmitting ? 'Saving…' : 'Save preferences'}
        </button>
      </div>
    </form>
  );
}
