import { useState } from 'react';
import { displayPhone, phoneFieldSchema } from '@platform/schema/crm/phone.rules';
import { useOrgFormat } from '../../../lib/use-org-format.ts';

type Props = {
  /** As stored: E.164 (issue 14), or text kept from before numbers were checked. */
  phone: string | null;
  onSave: (phone: string | null) => Promise<void>;
  canSave: boolean;
};

/**
 * The phone number on the customer's roster item, changed in place (also offline). Typed any
 * way, read as a number of the organisation's country unless it starts with +, saved in E.164
 * (the rule the server applies to the pushed item), shown the way people there write it.
 */
export function CustomerPhone({ phone, onSave, canSave }: Props) {
  const { country } = useOrgFormat().region;
  const shown = phone ? displayPhone(phone, country) : null;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (!editing)
    return (
      <>
        <span>{shown ?? '—'}</span>{' '}
        <button
          type="button"
          className="button-link"
          disabled={!canSave}
          onClick={() => {
            setDraft(shown ?? '');
            setInvalid(null);
            setFailure(null);
            setEditing(true);
          }}
        >
          Change phone
        </button>
      </>
    );
  const save = async () => {
    const parsed = phoneFieldSchema(country).safeParse(draft);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setInvalid(null);
    setSaving(true);
    setFailure(null);
    try {
      await onSave(parsed.data === '' ? null : parsed.data);
      setEditing(false);
    } catch {
      setFailure('We could not save the phone number. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="crm-inline-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="field">
        <label htmlFor="crm-phone">Phone</label>
        <input
          id="crm-phone"
          type="tel"
          autoComplete="off"
          maxLength={40}
          value={draft}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? 'crm-phone-error' : undefined}
          // Focus goes to the field that opened in place of the button.
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
        />
        {invalid && (
          <p id="crm-phone-error" className="field-error" role="alert">
            {invalid}
          </p>
        )}
      </div>
      <button type="submit" className="button button-secondary" disabled={saving}>
        {saving ? 'Saving…' : 'Save phone'}
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={saving}
        onClick={() => setEditing(false)}
      >
        Cancel
      </button>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
}
