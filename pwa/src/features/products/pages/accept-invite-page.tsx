import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import type { NewCard } from '@platform/schema/payments/charge.zod';
import { formatMoney } from '@platform/schema/payments/money';
import {
  packageInviteMessages,
  type AcceptInviteResponse,
  type CustomerInvite,
} from '@platform/schema/payments/package-invite.zod';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { acceptPackageInvite, getPackageInvite } from '../api/package-invites.ts';
import { InviteSummary } from '../components/invite-summary.tsx';
import { cardLabel } from '../components/offer-fields.tsx';
import { NewCardForm } from '../components/new-card-form.tsx';
import { inviteStanding } from '../invite-offer.ts';
import '../products.css';

const inviteKey = (inviteId: string) => ['package-invite', inviteId] as const;
const purchaseHistoryPath = (orgId: string) =>
  `/dashboard-customer/${encodeURIComponent(orgId)}/purchase-history`;

/**
 * /dashboard-customer/:orgId/invites/:inviteId — the emailed link of an invitation to a product
 * (issue 15): the invited customer sees the product, price, discount and first charge, and pays
 * with a card of theirs or a new one. Signed-out visitors are sent to sign in and back here by
 * the customer layout.
 */
export function AcceptInvitePage() {
  const { inviteId = '', orgId = '' } = useParams();
  const invite = useQuery({
    queryKey: inviteKey(inviteId),
    queryFn: ({ signal }) => getPackageInvite(inviteId, signal),
    retry: false,
  });
  return (
    <section className="page packages accept-invite">
      <h1>Your invitation</h1>
      {invite.isPending ? (
        <PageLoading label="Loading your invitation…" />
      ) : invite.isError ? (
        <InviteUnavailable error={invite.error} onRetry={() => void invite.refetch()} />
      ) : (
        <InviteAnswer invite={invite.data} orgId={orgId} />
      )}
    </section>
  );
}

function InviteUnavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const user = useSignedInUser();
  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="form-error" role="alert">
        <p>
          {packageInviteMessages.notYours} You are signed in as {user.email ?? user.fullName}.
        </p>
        <p>
          Sign out, sign in with the email address the invitation was sent to, then open the link in
          the email again. <a href="/auth/logout">Sign out</a>
        </p>
      </div>
    );
  }
  return (
    <div className="form-error" role="alert">
      <p>
        {error instanceof NetworkError
          ? 'You are offline. Your invitation shows when you are back online.'
          : failureText(error, 'Loading your invitation')}
      </p>
      {!(error instanceof ApiError && error.status < 500) && (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

function InviteAnswer({ invite, orgId }: { invite: CustomerInvite; orgId: string }) {
  const online = useOnlineStatus();
  const queryClient = useQueryClient();
  const [paid, setPaid] = useState<Extract<AcceptInviteResponse, { valid: true }> | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [card, setCard] = useState<string | 'new'>(invite.paymentMethods[0]?.id ?? 'new');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const recurring = invite.product.type === 'recurring';
  const history = (
    <Link to={purchaseHistoryPath(orgId || invite.orgId)}>See your purchase history</Link>
  );

  if (paid) {
    return (
      <div aria-live="polite" className="accept-invite-done">
        <p className="charge-done" role="status">
          {recurring ? chargeFlowMessages.subscriptionCreated : chargeFlowMessages.paymentProcessed}
        </p>
        <p>
          {formatMoney(paid.totals.total, invite.currency)} paid to {invite.orgName}. {history}
        </p>
      </div>
    );
  }
  const standing = inviteStanding(invite, new Date());
  if (standing !== 'open') {
    return (
      <div role="status">
        <p>
          {standing === 'accepted'
            ? `You accepted this invitation to ${invite.product.name} already.`
            : standing === 'expired'
              ? packageInviteMessages.expired
              : `${packageInviteMessages.notPending} ${invite.orgName} cancelled it: ask them for a new one if you still want it.`}
        </p>
        {standing === 'accepted' && <p>{history}</p>}
      </div>
    );
  }

  /** Pays; a declined card is said with its reason and another card can be tried. */
  const pay = async (payWith: { paymentMethodId: string } | NewCard) => {
    setBusy(true);
    setDeclined(null);
    setFailure(null);
    try {
      const result = await acceptPackageInvite(invite.id, payWith);
      if (result.valid) setPaid(result);
      else setDeclined(`${chargeFlowMessages.chargeInvalid} ${result.message}`);
    } catch (error) {
      setFailure(
        error instanceof NetworkError
          ? 'You are offline. Paying needs a connection.'
          : error instanceof ApiError && error.status < 500
            ? `${chargeFlowMessages.chargeInvalid} ${error.message}`
            : chargeFlowMessages.chargeFailed,
      );
      // The invitation may have changed meanwhile (cancelled, expired): read it again.
      if (error instanceof ApiError)
        void queryClient.invalidateQueries({ queryKey: inviteKey(invite.id) });
    } finally {
      setBusy(false);
    }
  };
  // A delayed start charges nothing today: the card is kept for the first charge then.
  const payLabel =
    invite.totals.total > 0
      ? `Pay ${formatMoney(invite.totals.total, invite.currency)}`
      : 'Confirm and save card';

  if (invite.processor === 'none') {
    return (
      <>
        <InviteSummary invite={invite} />
        <NoProcessorNotice detail={`It cannot be paid for now: ask ${invite.orgName} about it.`} />
      </>
    );
  }

  return (
    <>
      <InviteSummary invite={invite} />
      {invite.paymentMethods.length > 0 && (
        <fieldset className="product-choice">
          <legend>Pay with</legend>
          {invite.paymentMethods.map((saved) => (
            <label key={saved.id}>
              <input
                type="radio"
                name="invite-card"
                checked={card === saved.id}
                onChange={() => setCard(saved.id)}
              />{' '}
              {cardLabel(saved)}
            </label>
          ))}
          <label>
            <input
              type="radio"
              name="invite-card"
              checked={card === 'new'}
              onChange={() => setCard('new')}
            />{' '}
            A new card
          </label>
        </fieldset>
      )}
      {!online && (
        <p className="form-error" role="alert">
          You are offline. Paying needs a connection.
        </p>
      )}
      {(declined ?? failure) && (
        <p className="form-error" role="alert">
          {declined ?? failure}
          {declined && ' Try another card.'}
        </p>
      )}
      {card === 'new' ? (
        <NewCardForm
          processor={invite.processor}
          purpose="pay"
          save={(newCard) => pay(newCard)}
          submitLabel={payLabel}
          busyLabel="Paying…"
        />
      ) : (
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={busy || !online}
            aria-busy={busy || undefined}
            onClick={() => void pay({ paymentMethodId: card })}
          >
            {busy ? 'Paying…' : payLabel}
          </button>
        </div>
      )}
    </>
  );
}
