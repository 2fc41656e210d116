import { useState } from 'react';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import type { ChangeOutcome } from '../hooks/use-entry-changes.ts';
import { entrySummary } from '../entry-summary.ts';

type Props = {
  entry: TimeEntryDoc;
  personName: string;
  timeZone: string;
  onDelete: (entry: TimeEntryDoc) => Promise<ChangeOutcome>;
  onClose: () => void;
};

/** Asks before deleting an entry: the deletion reaches every device and cannot be undone here. */
export function DeleteEntryDialog({ entry, personName, timeZone, onDelete, onClose }: Props) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setRefusal(null);
    const outcome = await onDelete(entry);
    setBusy(false);
    if (outcome === null) onClose();
    else setRefusal(outcome);
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      title="Delete this time entry?"
      description={`${personName}: ${entrySummary(entry, timeZone)}. This cannot be undone.`}
    >
      <FormNotice notice={refusal ? { tone: 'error', text: refusal } : null} />
      <div className="button-row modal-actions">
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          aria-busy={busy ? true : undefined}
          onClick={() => void confirm()}
        >
          {busy ? 'Deleting…' : 'Delete entry'}
        </button>
        {/* A destructive question opens on its safe answer. */}
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={onClose}
          data-autofocus
        >
          Cancel
        </button>
      </div>
    </Modal>
  );
}
