import { useState, type FormEvent, type ReactNode } from 'react';
import { contactListNameSchema } from '@platform/schema/crm/contact-lists.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { FormNotice } from '../../../components/form-notice.tsx';
import { fieldErrorsOf, failureText } from '../../../lib/request-failure.ts';

type Props = {
  label: string;
  initialName?: string;
  /** Saves the trimmed name; throws what the server answered. */
  onSubmit: (name: string) => Promise<void>;
  /** The buttons, given whether the request runs (a dialog's, or one inline button). */
  actions: (busy: boolean) => ReactNode;
  /** What the failure message names: 'Creating the list'. */
  what: string;
  /** Empties the field after a save (the create form stays for the next list). */
  clearOnSave?: boolean;
  className?: string;
};

/**
 * A contact list's name, checked as the server checks it (1–100 characters once trimmed); the
 * server's own refusal (a name taken in any letter case) is shown under the field.
 */
export function ContactListNameForm(props: Props) {
  const { label, onSubmit, actions, what, clearOnSave = false, className } = props;
  const [name, setName] = useState(props.initialName ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = contactListNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      if (clearOnSave) setName('');
    } catch (caught) {
      const field = fieldErrorsOf(caught).find((e) => e.field === 'name');
      if (field) setError(field.message);
      else setFailure(failureText(caught, what));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={className ?? 'form'} noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        label={label}
        value={name}
        autoComplete="off"
        error={error}
        onChange={(event) => setName(event.target.value)}
      />
      {actions(busy)}
      <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
    </form>
  );
}
