import { useMemo } from 'react';
import {
  creditBalances,
  creditDocSchema,
  type CreditBalance,
} from '@platform/schema/payments/credit-doc.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';

/** The family's punch-card balances in one organisation, from the device (decision 0062). */
export function useCreditBalances(db: AccountDatabase | null, orgId: string) {
  const credits = useLiveQuery(db, 'credits', { selector: { orgId } });
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
  who,
}: {
  balances: CreditBalance[];
  /** The person's name when it is not the viewer's own balance. */
  who: (userId: string) => string | null;
}) {
  if (balances.length === 0) return null;
  return (
    <section aria-labelledby="ph-credits">
      <h2 id="ph-credits">Credits</h2>
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
