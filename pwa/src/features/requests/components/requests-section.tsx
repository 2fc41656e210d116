import { fullName } from '@platform/schema/app/full-name.rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PendingInvitation } from '@platform/schema/crm/crm.zod';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import { NetworkError } from '../../../lib/api.ts';
import { answerInvitation } from '../api/answer-invitation.ts';
import { getPendingInvitations } from '../api/get-pending-invitations.ts';
import { answerGuardianRequest, getGuardianRequests } from '../api/guardian-requests.ts';
import { requestsTexts } from '../requests-texts.ts';
import '../requests.css';

type Props = {
  userId: string;
  /** An answer changed what /api/me says (the count, the person's organisations). */
  onAnswered: () => void;
};

const requestsKey = (userId: string) => ['requests', userId] as const;

/**
 * What waits for the account owner's answer (decision 0035): organisations' invitations and
 * guardian links someone else made. Server state, not replicated: TanStack Query.
 */
export function RequestsSection({ userId, onAnswered }: Props) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const requests = useQuery({
    queryKey: requestsKey(userId),
    queryFn: async ({ signal }) => {
      const [invitations, guardians] = await Promise.all([
        getPendingInvitations(signal),
        getGuardianRequests(userId, signal),
      ]);
      return { invitations, guardians };
    },
  });
  const answer = useMutation({
    mutationFn: (request: Answer) =>
      request.kind === 'invitation'
        ? answerInvitation(request.invitation.id, request.answer)
        : answerGuardianRequest(userId, request.guardian.id, request.answer),
    onSuccess: (_result, request) => {
      toast.success(successText(request));
      onAnswered();
      return queryClient.invalidateQueries({ queryKey: requestsKey(userId) });
    },
    onError: () => toast.error(requestsTexts.failed),
  });
  const busy = answer.isPending;

  if (requests.isPending)
    return (
      <p className="requests-muted" role="status">
        {requestsTexts.loading}
      </p>
    );
  if (requests.isError)
    return (
      <p className="form-error" role="alert">
        {requests.error instanceof NetworkError ? requestsTexts.offline : requestsTexts.loadFailed}
      </p>
    );
  const { invitations, guardians } = requests.data;
  if (invitations.length === 0 && guardians.length === 0)
    return <p className="requests-muted">{requestsTexts.empty}</p>;

  const buttons = (request: Answer, yes: string, no: string, subject: string) => (
    <div className="button-row">
      {[true, false].map((positive) => {
        const choice = positive ? request : oppositeOf(request);
        return (
          <button
            key={String(positive)}
            type="button"
            className={`button button-small${positive ? '' : ' button-secondary'}`}
            disabled={busy}
            aria-busy={(busy && answerKey(answer.variables) === answerKey(choice)) || undefined}
            onClick={() => answer.mutate(choice)}
          >
            {positive ? yes : no}
            <span className="sr-only"> {subject}</span>
          </button>
        );
      })}
    </div>
  );

  return (
    <ul className="requests-list">
      {invitations.map((invitation) => (
        <li key={invitation.id} className="request">
          <p className="request-text">{requestsTexts.invitation(invitation.orgLabel)}</p>
          {buttons(
            { kind: 'invitation', invitation, answer: 'accept' },
            'Accept',
            'Decline',
            `the invitation of ${invitation.orgLabel}`,
          )}
        </li>
      ))}
      {guardians.map((guardian) => (
        <li key={guardian.id} className="request">
          <p className="request-text">
            {requestsTexts.guardian(fullName(guardian))}
            {guardian.email && <span className="requests-muted"> ({guardian.email})</span>}
          </p>
          <p className="requests-muted">{requestsTexts.guardianWhat}</p>
          {buttons(
            { kind: 'guardian', guardian, answer: 'confirm' },
            'Confirm',
            'Remove',
            fullName(guardian),
          )}
        </li>
      ))}
    </ul>
  );
}

type Answer =
  | { kind: 'invitation'; invitation: PendingInvitation; answer: 'accept' | 'decline' }
  | { kind: 'guardian'; guardian: FamilyMember; answer: 'confirm' | 'remove' };

/** The other answer to the same request (Decline for Accept, Remove for Confirm). */
const oppositeOf = (request: Answer): Answer =>
  request.kind === 'invitation'
    ? { ...request, answer: request.answer === 'accept' ? 'decline' : 'accept' }
    : { ...request, answer: request.answer === 'confirm' ? 'remove' : 'confirm' };

const answerKey = (request: Answer | undefined) =>
  request === undefined
    ? ''
    : `${request.kind === 'invitation' ? request.invitation.id : request.guardian.id}:${request.answer}`;

function successText(request: Answer): string {
  if (request.kind === 'invitation')
    return request.answer === 'accept'
      ? requestsTexts.accepted(request.invitation.orgLabel)
      : requestsTexts.declined;
  return request.answer === 'confirm'
    ? requestsTexts.confirmed(fullName(request.guardian))
    : requestsTexts.removed;
}
