import { useState } from 'react';
import { TAG_MAX, hasTag, spellingOf } from '@platform/schema/crm/tags.rules';

type Props = {
  tags: readonly string[];
  /** Saves the whole new list (on the device, which sends it when it can). */
  onSave: (tags: string[]) => Promise<void>;
  /** False while there is no way to save (offline before this customer reached the device). */
  canSave: boolean;
  /** The organisation's tags, offered as the tag is typed. */
  suggestions: readonly string[];
};

/**
 * The customer's tags: remove one, or add one (no commas — spec §5 CSV tags rule). Tags are
 * case-insensitive (issue 14): the organisation's tags are suggested as one types, a tag typed
 * in another case takes the organisation's spelling, and one the customer has is not added.
 */
export function CustomerTags({ tags, onSave, canSave, suggestions }: Props) {
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
  const tag = spellingOf(draft, suggestions);
  const already = tag !== '' && hasTag(tags, tag);
  const offered = suggestions.filter((known) => !hasTag(tags, known));
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
          if (tag && !already) void save([...tags, tag]);
        }}
      >
        <div className="field">
          <label htmlFor="crm-new-tag">New tag</label>
          <input
            id="crm-new-tag"
            value={draft}
            maxLength={TAG_MAX}
            list="crm-tag-suggestions"
            autoComplete="off"
            aria-describedby={already ? 'crm-tag-already' : undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
          <datalist id="crm-tag-suggestions">
            {offered.map((known) => (
              <option key={known} value={known} />
            ))}
          </datalist>
        </div>
        <button
          type="submit"
          className="button button-secondary"
          disabled={!canSave || saving || tag === '' || tag.includes(',') || already}
        >
          Add tag
        </button>
      </form>
      {tag.includes(',') && <p className="field-error">Tag name cannot contain commas</p>}
      {already && (
        <p id="crm-tag-already" className="field-hint">
          {tags.find((t) => hasTag([t], tag))} is already a tag of this customer.
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
