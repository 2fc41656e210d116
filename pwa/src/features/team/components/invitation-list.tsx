import { teamMessages } from '@platform/schema/team/team.messages';
import { CUSTOM_ROLE_LABEL, roles } from '@platform/schema/team/team.rules';
import type { PendingTeamInvitation } from '@platform/schema/team/team.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { TeamChanges } from '../hooks/use-team.ts';
import { failureText } from '../../../lib/request-failure.ts';

/** Invitations not yet answered: send again (a new link) or cancel. */
export function InvitationList({
  invitations,
  changes,
  formatDate,
}: {
  invitations: PendingTeamInvitation[];
  changes: Pick<TeamChanges, 'resend' | 'cancel'>;
  formatDate: (iso: string) => string;
}) {
  const toast = useToast();
  const busy = changes.resend.isPending || changes.cancel.isPending;

  async function run(kind: 'resend' | 'cancel', invitation: PendingTeamInvitation) {
    try {
      await changes[kind].mutateAsync(invitation.id);
      toast.success(
        kind === 'resend'
          ? teamMessages.invitationResent(invitation.email)
          : teamMessages.invitationCancelled(invitation.email),
      );
    } catch (error) {
      toast.error(
        failureText(
          error,
          kind === 'resend' ? 'Sending the invitation' : 'Cancelling the invitation',
        ),
      );
    }
  }

  return (
    <ul className="team-list" aria-label="Invitations waiting">
      {invitations.map((invitation) => (
        <li key={invitation.id} className="team-row">
          <div className="team-who">
            <p className="team-name">{invitation.email}</p>
            <p className="team-muted">
              {invitation.expired
                ? `Expired on ${formatDate(invitation.expiresAt)}: send it again for a new link.`
                : `Sent ${formatDate(invitation.sentAt)}${invitation.invitedBy ? ` by ${invitation.invitedBy}` : ''}`}
            </p>
          </div>
          <dl className="team-facts">
            <div>
              <dt>Role</dt>
              <dd>{invitation.role ? roles[invitation.role].label : CUSTOM_ROLE_LABEL}</dd>
            </div>
          </dl>
          <div className="button-row">
            <button
              type="button"
              className="button button-small button-secondary"
              disabled={busy}
              onClick={() => void run('resend', invitation)}
            >
              Send again<span className="sr-only"> to {invitation.email}</span>
            </button>
            <button
              type="button"
              className="button button-small button-secondary"
              disabled={busy}
              onClick={() => void run('cancel', invitation)}
            >
              Cancel invitation<span className="sr-only"> to {invitation.email}</span>
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
