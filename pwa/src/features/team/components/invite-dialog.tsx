import { useState, type FormEvent } from 'react';
import type { Claim } from '@platform/schema/organizations/claims';
import { teamMessages } from '@platform/schema/team/team.messages';
import { roles } from '@platform/schema/team/team.rules';
import { inviteStaffInputSchema } from '@platform/schema/team/team.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { FormNotice } from '../../../components/form-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { TeamChanges } from '../hooks/use-team.ts';
import { fieldErrorsOf, failureText } from '../../../lib/request-failure.ts';
import { ClaimsEditor } from './claims-editor.tsx';
import { DialogActions } from '../../../components/dialog-actions.tsx';

type Errors = { email?: string; claims?: string };

/** Invite staff: an address and what they may do (a role, then claims one by one). */
export function InviteDialog({
  open,
  onOpenChange,
  grantable,
  invite,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  grantable: readonly string[];
  invite: TeamChanges['invite'];
}) {
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [claims, setClaims] = useState<Claim[]>([...roles.coach.claims]);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const reset = () => {
    setEmail('');
    setClaims([...roles.coach.claims]);
    setErrors({});
    setFailure(null);
    invite.reset();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = inviteStaffInputSchema.safeParse({ email, claims });
    if (!parsed.success) {
      setErrors(
        errorsOf(
          parsed.error.issues.map((i) => ({ field: String(i.path[0]), message: i.message })),
        ),
      );
      return;
    }
    setErrors({});
    try {
      await invite.mutateAsync(parsed.data);
      toast.success(teamMessages.invitationSent(parsed.data.email));
      reset();
      onOpenChange(false);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(errorsOf(fields));
      else setFailure(failureText(error, 'Sending the invitation'));
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title="Invite to the team"
      description="They get an email with a link to join. Choose what they may do; you can change it later."
      focusFirstField
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={email}
          error={errors.email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <ClaimsEditor
          value={claims}
          onChange={setClaims}
          grantable={grantable}
          error={errors.claims}
        />
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        <DialogActions
          busy={invite.isPending}
          label="Send invitation"
          busyLabel="Sending…"
          onCancel={() => {
            reset();
            onOpenChange(false);
          }}
        />
      </form>
    </Modal>
  );
}

function errorsOf(fields: Array<{ field: string; message: string }>): Errors {
  const errors: Errors = {};
  for (const { field, message } of fields)
    if ((field === 'email' || field === 'claims') && !errors[field]) errors[field] = message;
  return errors;
}
