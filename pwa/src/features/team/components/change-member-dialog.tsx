import { useState, type FormEvent } from 'react';
import type { Claim } from '@platform/schema/organizations/claims';
import { teamMessages } from '@platform/schema/team/team.messages';
import { changeMemberInputSchema, type TeamMember } from '@platform/schema/team/team.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { TeamChanges } from '../hooks/use-team.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { ClaimsEditor } from './claims-editor.tsx';
import { DialogActions } from '../../../components/dialog-actions.tsx';

/** Change what one member may do: their role, or their claims one by one. */
export function ChangeMemberDialog({
  member,
  onClose,
  grantable,
  change,
  onChanged,
}: {
  member: TeamMember;
  onClose: () => void;
  grantable: readonly string[];
  change: TeamChanges['change'];
  /** The signed-in person changed their own claims: what the shell shows changes too. */
  onChanged: (member: TeamMember) => void;
}) {
  const toast = useToast();
  const [claims, setClaims] = useState<Claim[]>([...member.claims]);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = changeMemberInputSchema.safeParse({ claims });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? teamMessages.noClaims);
      return;
    }
    setError(null);
    try {
      await change.mutateAsync({ userId: member.userId, input: parsed.data });
      toast.success(teamMessages.memberChanged(member.isYou ? 'You' : member.name));
      onChanged(member);
      onClose();
    } catch (caught) {
      setFailure(failureText(caught, 'Saving the change'));
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`What ${member.isYou ? 'you' : member.name} may do`}
      focusFirstField
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <ClaimsEditor
          value={claims}
          onChange={setClaims}
          grantable={grantable}
          kept={member.claims}
          error={error ?? undefined}
        />
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        <DialogActions
          busy={change.isPending}
          label="Save"
          busyLabel="Saving…"
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
