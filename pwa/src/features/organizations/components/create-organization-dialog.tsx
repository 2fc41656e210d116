import { Modal } from '../../../components/modal.tsx';
import { CreateOrganizationForm } from './create-organization-form.tsx';

/** spec §2 Modal to create an organisation. */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: () => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create a new organization">
      <CreateOrganizationForm
        onCreated={() => {
          onOpenChange(false);
          onCreated();
        }}
      />
    </Modal>
  );
}
