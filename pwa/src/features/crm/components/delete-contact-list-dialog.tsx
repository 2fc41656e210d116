import { useState, type RefObject } from 'react';
import { contactListMessages, type ContactList } from '@platform/schema/crm/contact-lists.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText } from '../../../lib/request-failure.ts';
import type { ContactListChanges } from '../hooks/use-contact-lists.ts';

/** Asks before a list goes; its customers stay on the list of customers. */
export function DeleteContactListDialog({
  list,
  remove,
  onClose,
  onDeleted,
  returnFocusTo,
}: {
  list: ContactList;
  remove: ContactListChanges['remove'];
  onClose: () => void;
  onDeleted: (list: ContactList) => void;
  /** The list's row goes with it: focus lands here instead. */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setFailure(null);
    try {
      await remove.mutateAsync(list.id);
      toast.success(contactListMessages.deleted(list.name));
      onDeleted(list);
      onClose();
    } catch (caught) {
      setFailure(failureText(caught, 'Deleting the list'));
    }
  }

  const members =
    list.memberCount === 1 ? '1 member' : `${list.memberCount.toLocaleString()} members`;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${list.name}?`}
      description={`The list and who is on it (${members}) are deleted. The customers stay on your customer list.`}
      returnFocusTo={returnFocusTo}
    >
      <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
      <div className="button-row">
        <button
          type="button"
          className="button button-danger"
          disabled={remove.isPending}
          aria-busy={remove.isPending || undefined}
          onClick={() => void confirm()}
        >
          {remove.isPending ? 'Deleting…' : 'Delete list'}
        </button>
        {/* A deletion is not undone: focus starts on Cancel. */}
        <button type="button" className="button button-secondary" data-autofocus onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
