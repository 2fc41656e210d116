import { useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '@platform/schema/payments/money';
import { orgFormat } from '@platform/schema/organizations/org-format';
import type { PendingInvite } from '@platform/schema/payments/package-invite.zod';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { useCancelInvite, usePendingInvites } from '../hooks/use-package-invites.ts';
import '../products.css';

/** The CRM's profile page, by path (features never import each other). */
const profilePath = (rosterId: string) =>
  `/dashboard/crm/customers/${encodeURIComponent(rosterId)}`;

/**
 * Open invitations to products (issue 15): one customer's on their profile (rosterId), or the
 * organisation's on the roster page (null), each with Cancel and a confirmation. Server state,
 * refetched after every send and cancel.
 */
export function PendingInvites({ rosterId }: { rosterId: string | null }) {
  const online = useOnlineStatus();
  const invites = usePendingInvites(rosterId);
  const headingId = rosterId ? 'pending-invites-customer' : 'pending-invites-org';
  return (
    <section className="pending-invites" aria-labelledby={headingId}>
      <h2 id={headingId}>Pending invitations</h2>
      {!online && !invites.data ? (
        <p className="packages-muted" role="status">
          Pending invitations need a connection: they show when you are back online.
        </p>
      ) : invites.isPending ? (
        <p className="packages-muted" role="status">
          Loading invitations…
        </p>
      ) : invites.isError ? (
        <LoadFailure
          error={invites.error}
          what={'Loading the invitations'}
          onRetry={() => void invites.refetch()}
        />
      ) : invites.data.length === 0 ? (
        <p className="packages-muted">No open invitations.</p>
      ) : (
        <ul className="pending-invites-list" aria-labelledby={headingId}>
          {invites.data.map((invite) => (
            <PendingInviteRow
              key={invite.id}
              invite={invite}
              showCustomer={rosterId === null}
              online={online}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function PendingInviteRow({
  invite,
  showCustomer,
  online,
}: {
  invite: PendingInvite;
  showCustomer: boolean;
  online: boolean;
}) {
  const user = useSignedInUser();
  const format = orgFormat(user.org?.timezone);
  const cancel = useCancelInvite();
  const [confirming, setConfirming] = useState(false);
  const what = `${invite.productName}${showCustomer ? ` for ${invite.customerName}` : ''}`;
  return (
    <li className="pending-invite">
      <p className="pending-invite-title">
        {showCustomer &&
          (invite.rosterId ? (
            <>
              <Link to={profilePath(invite.rosterId)}>{invite.customerName}</Link>:{' '}
            </>
          ) : (
            `${invite.customerName}: `
          ))}
        <strong>{invite.productName}</strong>
      </p>
      <dl className="pending-invite-details">
        <dt>Price</dt>
        <dd>{formatMoney(invite.priceMinor)}</dd>
        {invite.couponName && (
          <>
            <dt>Coupon</dt>
            <dd>{invite.couponName}</dd>
          </>
        )}
        <dt>Start</dt>
        <dd>{invite.startDate ? format.date(invite.startDate) : 'On purchase'}</dd>
        <dt>Expires</dt>
        <dd>{format.dateOf(invite.expiresAt)}</dd>
      </dl>
      {cancel.isError && (
        <p className="form-error" role="alert">
          {failureText(cancel.error, 'Cancelling the invitation')}
        </p>
      )}
      {confirming ? (
        <div role="group" aria-label={`Cancel the invitation to ${what}?`} className="button-row">
          <span>Cancel this invitation? The link in the email stops working.</span>
          <button
            type="button"
            className="button button-danger"
            disabled={cancel.isPending || !online}
            aria-busy={cancel.isPending || undefined}
            onClick={() => cancel.mutate(invite.id, { onSuccess: () => setConfirming(false) })}
          >
            {cancel.isPending ? 'Cancelling…' : 'Yes, cancel it'}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setConfirming(false)}
          >
            Keep it
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button button-secondary"
          aria-label={`Cancel the invitation to ${what}`}
          disabled={!online}
          title={online ? undefined : 'Cancelling needs a connection.'}
          onClick={() => setConfirming(true)}
        >
          Cancel
        </button>
      )}
    </li>
  );
}
