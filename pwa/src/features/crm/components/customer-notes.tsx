import { useState } from 'react';
import { NOTE_MAX } from '@platform/schema/crm/customer-note.zod';
import type { CustomerNote } from '@platform/schema/crm/crm.zod';
import { useOrgFormat } from '../../../lib/use-org-format.ts';

type Props = {
  notes: CustomerNote[];
  /** Saves a new note (on the device, which sends it when it can). */
  onAdd: (body: string) => Promise<void>;
  canSave: boolean;
};

/**
 * Staff notes on a customer (for external-payment records, one of the two things they manage).
 * Written at the front desk with or without a network; never edited afterwards.
 */
export function CustomerNotes({ notes, onAdd, canSave }: Props) {
  const format = useOrgFormat();
  const [body, setBody] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      await onAdd(body);
      setBody('');
    } catch {
      setFailure('We could not save this note. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="crm-card" aria-labelledby="crm-notes-heading">
      <h2 id="crm-notes-heading">Notes</h2>
      {notes.length === 0 ? (
        <p className="crm-muted">No notes yet.</p>
      ) : (
        <ul className="crm-entries">
          {notes.map((note) => (
            <li key={note.id}>
              <p>{note.body}</p>
              <p className="crm-muted">
                {note.authorName} ·{' '}
                <time dateTime={note.createdAt}>{format.dateTime(note.createdAt)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor="crm-note">New note</label>
          <textarea
            id="crm-note"
            rows={3}
            maxLength={NOTE_MAX}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        </div>
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <button
          type="submit"
          className="button button-secondary"
          disabled={!canSave || saving || body.trim() === ''}
        >
          {saving ? 'Saving…' : 'Add note'}
        </button>
      </form>
    </section>
  );
}
