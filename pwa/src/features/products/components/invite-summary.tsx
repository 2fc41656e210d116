import { formatMoney } from '@platform/schema/payments/money';
import { orgFormat } from '@platform/schema/organizations/org-format';
import type { CustomerInvite } from '@platform/schema/payments/package-invite.zod';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { scheduleLabels } from '../catalogue-texts.ts';
import { ChargeLines } from '../../../components/charge-lines.tsx';

/**
 * What an invitation offers, as its customer reads it before paying: the organisation, the
 * product and its price, the discount, the first charge's lines and total, when it starts, the
 * next billing date and until when the invitation is open.
 */
export function InviteSummary({ invite }: { invite: CustomerInvite }) {
  const user = useSignedInUser();
  const format = orgFormat(user.org?.timezone);
  const money = (minor: number) => formatMoney(minor, invite.currency);
  const { totals, product } = invite;
  const recurring = product.type === 'recurring';
  return (
    <>
      <p>
        <strong>{invite.orgName}</strong> invites you to <strong>{product.name}</strong>.
      </p>
      <dl className="charge-totals">
        <dt>Price</dt>
        <dd>
          {money(totals.recurringFinalAmount || totals.subtotal)}
          {recurring ? ` ${scheduleLabels[product.schedule].toLowerCase()}` : ''}
        </dd>
        {invite.couponName && (
          <>
            <dt>Discount</dt>
            <dd>
              {invite.couponName}
              {totals.couponDiscount > 0 ? ` (−${money(totals.couponDiscount)} now)` : ''}
            </dd>
          </>
        )}
        <dt>Starts</dt>
        <dd>{invite.startDate ? format.date(invite.startDate) : 'When you pay'}</dd>
        {totals.nextBillingDate && (
          <>
            <dt>Next billing date</dt>
            <dd>{format.date(totals.nextBillingDate)}</dd>
          </>
        )}
        {invite.endDate && (
          <>
            <dt>Ends</dt>
            <dd>
              {format.date(invite.endDate)} (nothing is charged for a period that begins on or after
              it)
            </dd>
          </>
        )}
        <dt>Open until</dt>
        <dd>{format.dateOf(invite.expiresAt)}</dd>
      </dl>
      <ChargeLines caption="First charge" lines={totals.lineItems} money={money}>
        <tfoot>
          <tr>
            <th scope="row">Total now</th>
            <td className="charge-total">{money(totals.total)}</td>
          </tr>
        </tfoot>
      </ChargeLines>
    </>
  );
}
