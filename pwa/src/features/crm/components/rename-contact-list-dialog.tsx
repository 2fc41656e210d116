import type { ContactList } from '@platform/schema/crm/contact-lists.zod';
import { contactListMessages } from '@platform/schema/crm/contact-lists.zod';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { ContactListChanges } from '../hooks/use-contact-lists.ts';
import { ContactListNameForm } from './contact-list-name-form.tsx';

/** A new name for a list (the same name in another letter case is fine). */
export function RenameContactListDialog({
  list,
  rename,
  onClose,
}: {
  list: ContactList;
  rename: ContactListChanges['rename'];
  onClose: () => void;
}) {
  const toast = useToast();
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Rename ${list.name}`}>
      <ContactListNameForm
        label="List name"
        initialName={list.name}
        what="Renaming the list"
        onSubmit={async (name) => {
          const renamed = await rename.mutateAsync({ id: list.id, name });
          toast.success(contactListMessages.renamed(renamed.name));
          onClose();
        }}
        actions={(busy) => (
          <DialogActions busy={busy} label="Save name" busyLabel="Saving…" onCancel={onClose} />
        )}
      />
    </Modal>
  );
}
