import { failureText } from '../../../lib/request-failure.ts';

export type InvitationOutcome =
  | { status: 'sending' }
  | { status: 'sent'; message: string }
  | { status: 'failed'; error: unknown };

/**
 * What became of the product invitation sent after the customer was created: its message, or
 * that the customer exists but the invitation was not sent — with a retry.
 */
export function InvitationOutcomeNotice({
  outcome,
  onRetry,
}: {
  outcome: InvitationOutcome;
  onRetry: () => void;
}) {
  if (outcome.status === 'sending') {
    return (
      <p className="crm-muted" role="status">
        Sending the invitation…
      </p>
    );
  }
  if (outcome.status === 'sent') {
    return (
      <p className="form-success" role="status">
        {outcome.message}
      </p>
    );
  }
  return (
    <div className="form-error" role="alert">
      <p>
        The customer was created, but the invitation was not sent:{' '}
        {failureText(outcome.error, 'Sending the invitation')}
      </p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        Send the invitation again
      </button>
    </div>
  );
}
