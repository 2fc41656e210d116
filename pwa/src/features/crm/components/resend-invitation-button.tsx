import { useMutation } from '@tanstack/react-query';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { failureText } from '../../../lib/request-failure.ts';
import { resendInvitation } from '../api/resend-invitation.ts';

/**
 * Issue 14: send someone who has not answered their invitation a new link — beside "Open
 * profile" when their address was typed again, and on their profile. Says what happened in place.
 */
export function ResendInvitationButton({ rosterId, email }: { rosterId: string; email: string }) {
  const resend = useMutation({ mutationFn: () => resendInvitation(rosterId) });
  const said = resend.isSuccess
    ? resend.data.inviteSent
      ? crmMessages.invitationResent(email)
      : 'The invitation could not be sent. Please try again.'
    : resend.isError
      ? failureText(resend.error, 'Sending the invitation')
      : '';
  return (
    <span className="resend-invitation">
      <button
        type="button"
        className="button button-secondary"
        disabled={resend.isPending}
        aria-busy={resend.isPending || undefined}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? 'Sending…' : 'Resend invitation'}
      </button>
      <span role="status">{said}</span>
    </span>
  );
}
