import { useState, type ReactNode } from 'react';
import { guardianMessages } from '@platform/schema/families/families.messages';
import type { FamilyMember, GuardianSignupDto } from '@platform/schema/families/families.zod';
import { Modal } from '../../../components/modal.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { addGuardian } from '../api/add-guardian.ts';
import { getGuardians } from '../api/get-guardians.ts';
import { removeGuardianLink } from '../api/remove-guardian.ts';
import { failureText, familyTexts } from '../family-texts.ts';
import type { FamilySubject } from '../family-subject.ts';
import { useFamilyMembers } from '../hooks/use-family-members.ts';
import { AddGuardianForm } from './add-guardian-form.tsx';
import { FieldErrorList } from './field-error-list.tsx';
import { GuardianList } from './guardian-list.tsx';
import '../families.css';

type Props = {
  subject: FamilySubject;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A guardian was added or removed (e.g. to refresh what the page shows). */
  onChanged?: () => void;
  /**
   * Staff in the CRM: a way to choose one of the organisation's customers as the guardian (the
   * customer picker, composed in by app/), handed the function that adds the chosen person.
   */
  chooseExisting?: (add: (person: GuardianSignupDto) => Promise<void>) => ReactNode;
};

type Failure = { message: string; details: string[] };

/** spec §2 'Manage parent/guardian accounts': the subject's guardians, remove, add. */
export function ManageGuardiansDialog({
  subject,
  open,
  onOpenChange,
  onChanged,
  chooseExisting,
}: Props) {
  const online = useOnlineStatus();
  const { state, reload } = useFamilyMembers('guardians', getGuardians, subject.id);
  const [removeFailure, setRemoveFailure] = useState<string | null>(null);
  const [chosen, setChosen] = useState<{ failure: Failure | null; added: string | null }>({
    failure: null,
    added: null,
  });

  /** The chosen customer already has an account: it is linked, no email is needed. */
  const addExisting = async (person: GuardianSignupDto) => {
    setChosen({ failure: null, added: null });
    try {
      const outcome = await addGuardian({
        userId: subject.id,
        signupDto: person,
        skipResetPasswordMail: true,
      });
      if (outcome.kind === 'added') {
        setChosen({ failure: null, added: familyTexts.guardianAdded });
        reload();
        onChanged?.();
        return;
      }
      const details = outcome.errors.map((error) => error.message);
      setChosen({ failure: { message: guardianMessages.addFailed, details }, added: null });
    } catch (error) {
      const message = failureText(error, guardianMessages.addFailed);
      setChosen({ failure: { message, details: [] }, added: null });
    }
  };

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
      {chooseExisting && (
        <section className="family-form" aria-labelledby="choose-guardian-heading">
          <h3 id="choose-guardian-heading" className="family-heading">
            Choose one of your customers
          </h3>
          {chosen.failure && (
            <FieldErrorList title={chosen.failure.message} messages={chosen.failure.details} />
          )}
          {chosen.added && (
            <p className="form-success" role="status">
              {chosen.added}
            </p>
          )}
          {chooseExisting(addExisting)}
        </section>
      )}
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
