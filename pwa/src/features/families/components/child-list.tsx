import { useEffect, useRef, useState } from 'react';
import { ageText } from '@platform/schema/families/date-of-birth.rules';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { localToday } from '../../../lib/local-today.ts';
import { familyMessages } from '@platform/schema/families/families.messages';
import type { FamilyMembers } from '../hooks/use-family-members.ts';
import { familyTexts } from '../family-texts.ts';
import { fullName } from '@platform/schema/app/full-name.rules';

type Props = {
  state: FamilyMembers;
  disabled: boolean;
  /** Resolves true once the link is gone. */
  onDisconnect: (child: FamilyMember) => Promise<boolean>;
};

/**
 * The guardian's children, each with Disconnect; disconnecting asks first (spec §8), in place
 * and keyboard-first: the question takes focus on Cancel, and Cancel gives it back.
 */
export function ChildList({ state, disabled, onDisconnect }: Props) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const disconnectButtons = useRef(new Map<string, HTMLButtonElement>());
  const cancelButton = useRef<HTMLButtonElement>(null);
  const returnFocusTo = useRef<string | null>(null);

  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (returnFocusTo.current) {
      disconnectButtons.current.get(returnFocusTo.current)?.focus();
      returnFocusTo.current = null;
    }
  }, [confirming]);

  if (state.status === 'loading')
    return (
      <p className="family-muted" role="status">
        Loading child accounts…
      </p>
    );
  if (state.status === 'failed')
    return (
      <p className="form-error" role="alert">
        {state.offline ? familyTexts.offline : familyTexts.loadFailed}
      </p>
    );
  if (state.members.length === 0)
    return <p className="family-muted">{familyMessages.noChildren}</p>;

  const cancel = (childId: string) => {
    returnFocusTo.current = childId;
    setConfirming(null);
  };
  const confirm = async (child: FamilyMember) => {
    setPending(true);
    const done = await onDisconnect(child).finally(() => setPending(false));
    if (done) setConfirming(null);
  };

  const today = localToday();
  return (
    <ul className="family-list">
      {state.members.map((child) => {
        const name = fullName(child);
        const questionId = `disconnect-question-${child.id}`;
        return (
          <li key={child.id} className="family-member">
            <span className="family-member-text">
              <span className="family-member-name">{name}</span>
              {child.dateOfBirth && (
                <span className="family-muted">{ageText(child.dateOfBirth, today)}</span>
              )}
              {child.email && <span className="family-muted">{child.email}</span>}
              {child.awaitingConfirmation && (
                <span className="family-status">{familyMessages.awaitingConfirmation}</span>
              )}
            </span>
            {confirming === child.id ? (
              <div className="family-confirm" role="group" aria-labelledby={questionId}>
                <p id={questionId} className="family-confirm-question">
                  {familyMessages.disconnectConfirm}
                </p>
                <div className="button-row">
                  <button
                    type="button"
                    className="button button-danger button-small"
                    disabled={pending || disabled}
                    aria-busy={pending ? true : undefined}
                    onClick={() => void confirm(child)}
                  >
                    {pending ? 'Disconnecting…' : 'Yes, disconnect'}
                    <span className="sr-only"> {name}</span>
                  </button>
                  <button
                    ref={cancelButton}
                    type="button"
                    className="button button-secondary button-small"
                    disabled={pending}
                    onClick={() => cancel(child.id)}
                  >
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <button
                ref={(element) => {
                  if (element) disconnectButtons.current.set(child.id, element);
                  else disconnectButtons.current.delete(child.id);
                }}
                type="button"
                className="button button-secondary button-small"
                disabled={disabled || confirming !== null}
                onClick={() => setConfirming(child.id)}
              >
                Disconnect<span className="sr-only"> {name}</span>
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
