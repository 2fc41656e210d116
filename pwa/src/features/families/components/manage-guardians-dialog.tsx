import { useState } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { Modal } from '../../../components/modal.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { getGuardians } from '../api/get-guardians.ts';
import { removeGuardianLink } from '../api/remove-guardian.ts';
import { failureText, familyTexts } from '../family-texts.ts';
import type { FamilySubject } from '../family-subject.ts';
import { useFamilyMembers } from '../hooks/use-family-members.ts';
import { AddGuardianForm } from './add-guardian-form.tsx';
import { GuardianList } from './guardian-list.tsx';
import '../families.css';

type Props = {
  subject: FamilySubject;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A guardian was added or removed (e.g. to refresh what the page shows). */
  onChanged?: () => void;
};

/** spec §2 'Manage parent/guardian accounts': the subject's guardians, remove, add. */
export function ManageGuardiansDialog({ subject, open, onOpenChange, onChanged }: Props) {
  const online = useOnlineStatus();
  const { state, reload } = useFamilyMembers(getGuardians, subject.id);
  const [removeFailure, setRemoveFailure] = useState<string | null>(null);

  const remove = async (guardian: FamilyMember) => {
    setRemoveFailure(null);
    try {
      await removeGuardianLink({ userId: subject.id, guardianUserId: guardian.id });
      reload();
      onChanged?.();
    } catch (error) {
      setRemoveFailure(failureText(error, familyTexts.removeFailed));
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Manage parent/guardian accounts"
      description={`Parents and guardians can manage ${subject.name}’s bookings and payments.`}
    >
      {!online && (
        <p className="form-error" role="alert">
          {familyTexts.offline}
        </p>
      )}
      <section aria-labelledby="guardian-list-heading">
        <h3 id="guardian-list-heading" className="family-heading">
          Parents/guardians of {subject.name}
        </h3>
        {removeFailure && (
          <p className="form-error" role="alert">
            {removeFailure}
          </p>
        )}
        <GuardianList state={state} disabled={!online} onRemove={remove} />
      </section>
      <AddGuardianForm
        subjectId={subject.id}
        offline={!online}
        onAdded={() => {
          reload();
          onChanged?.();
        }}
      />
    </Modal>
  );
}
