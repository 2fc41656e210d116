import { useId, useMemo } from 'react';
import {
  creditBalances,
  creditDocSchema,
  type CreditBalance,
} from '@platform/schema/payments/credit-doc.zod';
import type { AccountDatabase } from '../db/database.ts';
import { useLiveQuery } from '../db/use-live-query.ts';

/**
 * Punch-card balances from the device (decision 0062): the family's in one organisation, or one
 * customer's when `customerUserId` is given (staff who sell replicate everyone's).
 */
export function useCreditBalances(
  db: AccountDatabase | null,
  orgId: string,
  customerUserId?: string,
) {
  const credits = useLiveQuery(db, 'credits', {
    selector: customerUserId ? { orgId, customerUserId } : { orgId },
  });
  const balances = useMemo(
    () =>
      creditBalances(
        credits.documents.flatMap((doc) => {
          const parsed = creditDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        }),
      ),
    [credits.documents],
  );
  return { status: credits.status, balances };
}

/** "Classes — 7 of 10 left", per person and punch-card group. */
export function CreditBalances({
  balances,
  who = () => null,
}: {
  balances: CreditBalance[];
  /** The person's name when it is not the viewer's own balance. */
  who?: (userId: string) => string | null;
}) {
  const headingId = useId();
  if (balances.length === 0) return null;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Credits</h2>
      <ul className="purchases">
        {balances.map((balance) => (
          <li key={`${balance.customerUserId}:${balance.groupId}`} className="shop-item">
            <h3>{balance.groupName}</h3>
            {who(balance.customerUserId) && (
              <p className="field-hint">For {who(balance.customerUserId)}</p>
            )}
            <p>
              <strong>{Math.max(balance.balance, 0)}</strong> of {balance.given}{' '}
              {balance.given === 1 ? 'credit' : 'credits'} left
            </p>
            <p className="field-hint">From {balance.productName}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
