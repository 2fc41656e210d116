import { useState } from 'react';

type Props = {
  phone: string | null;
  onSave: (phone: string | null) => Promise<void>;
  canSave: boolean;
};

/** The phone number on the customer's roster item, changed in place (also offline). */
export function CustomerPhone({ phone, onSave, canSave }: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(phone ?? '');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!editing)
    return (
      <>
        <span>{phone ?? '—'}</span>{' '}
        <button
          type="button"
          className="button-link"
          disabled={!canSave}
          onClick={() => {
            setDraft(phone ?? '');
            setFailure(null);
            setEditing(true);
          }}
        >
          Change phone
        </button>
      </>
    );
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      const next = draft.trim();
      await onSave(next === '' ? null : next);
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
          onChange={(e) => setDraft(e.target.value)}
        />
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
