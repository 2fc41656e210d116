import { useState } from 'react';
import { customerTagProblem, TAG_MAX_LENGTH } from '@platform/schema/crm/customer-tag.zod';

type Props = {
  tags: string[];
  /** Saves the whole new list (on the device, which sends it when it can). */
  onSave: (tags: string[]) => Promise<void>;
  /** False while there is no way to save (offline before this customer reached the device). */
  canSave: boolean;
};

/** The customer's tags: remove one, or add one (the shared rule: no commas, spec §5). */
export function CustomerTags({ tags, onSave, canSave }: Props) {
  const [draft, setDraft] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async (next: string[]) => {
    setSaving(true);
    setFailure(null);
    try {
      await onSave(next);
      setDraft('');
    } catch {
      setFailure('We could not save the tags. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  const tag = draft.trim();
  const problem = tag === '' ? null : customerTagProblem(tag);
  return (
    <section className="crm-card" aria-labelledby="crm-tags-heading">
      <h2 id="crm-tags-heading">Tags</h2>
      {tags.length === 0 ? (
        <p className="crm-muted">No tags.</p>
      ) : (
        <ul className="crm-tags" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="crm-tag">
              {t}
              <button
                type="button"
                className="crm-tag-remove"
                aria-label={`Remove tag ${t}`}
                disabled={!canSave || saving}
                onClick={() => void save(tags.filter((other) => other !== t))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="crm-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (tag && !tags.includes(tag)) void save([...tags, tag]);
        }}
      >
        <div className="field">
          <label htmlFor="crm-new-tag">New tag</label>
          <input
            id="crm-new-tag"
            value={draft}
            maxLength={TAG_MAX_LENGTH}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
        <button
          type="submit"
          className="button button-secondary"
          disabled={!canSave || saving || tag === '' || problem !== null}
        >
          Add tag
        </button>
      </form>
      {problem && <p className="field-error">{problem}</p>}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
