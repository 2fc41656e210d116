import { useState } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { familyMessages, guardianMessages } from '@platform/schema/families/families.messages';
import type { FamilyMembers } from '../hooks/use-family-members.ts';
import { familyTexts } from '../family-texts.ts';
import { fullName } from '@platform/schema/app/full-name.rules';

type Props = {
  state: FamilyMembers;
  disabled: boolean;
  onRemove: (guardian: FamilyMember) => Promise<void>;
};

/** The subject's parents/guardians, each with Remove (spec §8 empty state). */
export function GuardianList({ state, disabled, onRemove }: Props) {
  const [removing, setRemoving] = useState<string | null>(null);
  if (state.status === 'loading')
    return (
      <p className="family-muted" role="status">
        Loading parents/guardians…
      </p>
    );
  if (state.status === 'failed')
    return (
      <p className="form-error" role="alert">
        {state.offline ? familyTexts.offline : familyTexts.loadFailed}
      </p>
    );
  if (state.members.length === 0)
    return <p className="family-muted">{guardianMessages.noGuardians}</p>;

  const remove = async (guardian: FamilyMember) => {
    setRemoving(guardian.id);
    try {
      await onRemove(guardian);
    } finally {
      setRemoving(null);
    }
  };
  return (
    <ul className="family-list">
      {state.members.map((guardian) => (
        <li key={guardian.id} className="family-member">
          <span className="family-member-text">
            <span className="family-member-name">{fullName(guardian)}</span>
            {guardian.email && <span className="family-muted">{guardian.email}</span>}
            {guardian.awaitingConfirmation && (
              <span className="family-status">{familyMessages.awaitingConfirmation}</span>
            )}
          </span>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={disabled || removing !== null}
            aria-busy={removing === guardian.id ? true : undefined}
            onClick={() => void remove(guardian)}
          >
            {removing === guardian.id ? 'Removing…' : 'Remove'}
            <span className="sr-only"> {fullName(guardian)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
