import { useState, type RefObject } from 'react';
import { teamMessages } from '@platform/schema/team/team.messages';
import type { TeamMember } from '@platform/schema/team/team.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { TeamChanges } from '../hooks/use-team.ts';
import { failureText } from '../../../lib/request-failure.ts';

/** Asks before a member leaves the team; says why when the server refuses (the last owner). */
export function RemoveMemberDialog({
  member,
  orgLabel,
  onClose,
  remove,
  returnFocusTo,
  onRemoved,
}: {
  member: TeamMember;
  orgLabel: string;
  onClose: () => void;
  remove: TeamChanges['remove'];
  /** The member's row goes with them: focus lands here instead. */
  returnFocusTo: RefObject<HTMLElement | null>;
  onRemoved: (member: TeamMember) => void;
}) {
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setFailure(null);
    try {
      await remove.mutateAsync(member.userId);
      toast.success(teamMessages.memberRemoved(member.isYou ? 'You' : member.name));
      onRemoved(member);
      onClose();
    } catch (caught) {
      setFailure(failureText(caught, 'Removing the member'));
    }
  }

  const who = member.isYou ? 'yourself' : member.name;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Remove ${who} from the team?`}
      description={`${member.isYou ? 'You' : member.name} will no longer work in ${orgLabel}. The account stays ${member.isYou ? 'yours' : 'theirs'}.`}
      returnFocusTo={returnFocusTo}
    >
      <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
      <div className="button-row team-dialog-actions">
        <button
          type="button"
          className="button button-danger"
          disabled={remove.isPending}
          aria-busy={remove.isPending || undefined}
          onClick={() => void confirm()}
        >
          {remove.isPending ? 'Removing…' : 'Remove from team'}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
