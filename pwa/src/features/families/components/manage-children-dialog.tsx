import { useRef, useState } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { getChildren } from '../api/get-children.ts';
import { removeGuardianLink } from '../api/remove-guardian.ts';
import { failureText, familyTexts } from '../family-texts.ts';
import type { FamilySubject } from '../family-subject.ts';
import { useFamilyMembers } from '../hooks/use-family-members.ts';
import { AddChildrenForm } from './add-children-form.tsx';
import { ChildList } from './child-list.tsx';
import '../families.css';

type Props = {
  /** The guardian whose children these are. */
  subject: FamilySubject;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A child was created or disconnected. */
  onChanged?: () => void;
};

/** spec §2 'Manage child accounts': the guardian's children, disconnect, add children. */
export function ManageChildrenDialog({ subject, open, onOpenChange, onChanged }: Props) {
  const online = useOnlineStatus();
  const { state, reload } = useFamilyMembers('children', getChildren, subject.id);
  const toast = useToast();
  const [notice, setNotice] = useState<Notice | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);

  const disconnect = async (child: FamilyMember): Promise<boolean> => {
    setNotice(null);
    try {
      await removeGuardianLink({ userId: child.id, guardianUserId: subject.id });
      setNotice({ tone: 'success', text: familyTexts.disconnected });
      reload();
      onChanged?.();
      // The row and its buttons are about to go; focus stays in the dialog, on the list.
      listHeading.current?.focus();
      return true;
    } catch (error) {
      setNotice({ tone: 'error', text: failureText(error, familyTexts.removeFailed) });
      return false;
    }
  };

  // Issue 14 (in place of spec §9's page reload): a toast says so and the new rows show here.
  const created = (children: FamilyMember[]) => {
    setNotice(null);
    toast.success(familyTexts.childrenCreated(children.length));
    reload();
    onChanged?.();
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Manage child accounts"
      description={`Child accounts are managed by ${subject.name}, who can switch into them.`}
    >
      {!online && (
        <p className="form-error" role="alert">
          {familyTexts.offline}
        </p>
      )}
      <section aria-labelledby="child-list-heading">
        {/* The dialog opens on its list: who the children are comes before adding one. */}
        <h3
          id="child-list-heading"
          ref={listHeading}
          tabIndex={-1}
          className="family-heading"
          data-autofocus
        >
          Children of {subject.name}
        </h3>
        <FormNotice notice={notice} />
        <ChildList state={state} disabled={!online} onDisconnect={disconnect} />
      </section>
      <AddChildrenForm guardianId={subject.id} offline={!online} onCreated={created} />
    </Modal>
  );
}
