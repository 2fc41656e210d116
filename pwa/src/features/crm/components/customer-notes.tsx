import { useState } from 'react';
import type { CustomerNote } from '@platform/schema/crm/crm.zod';
import { addCustomerNote } from '../api/customer-details.ts';

type Props = {
  rosterId: string;
  notes: CustomerNote[];
  onAdded: (note: CustomerNote) => void;
  online: boolean;
};

/** Staff notes on a customer (for external-payment records, one of the two things they manage). */
export function CustomerNotes({ rosterId, notes, onAdded, online }: Props) {
  const [body, setBody] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      onAdded(await addCustomerNote(rosterId, body));
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
                {note.authorName} · {new Date(note.createdAt).toLocaleString()}
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
          <textarea id="crm-note" rows={3} value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <button
          type="submit"
          className="button button-secondary"
          disabled={!online || saving || body.trim() === ''}
        >
          {saving ? 'Saving…' : 'Add note'}
        </button>
      </form>
    </section>
  );
}
