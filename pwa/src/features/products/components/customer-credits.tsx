import { CreditBalances, useCreditBalances } from '../../../components/credit-balances.tsx';
import { useAccountSync } from '../../../sync/sync-context.tsx';

/**
 * A customer's punch-card credits on their profile, for staff who sell (decision 0062): from
 * the device's replica, so the front desk sees them offline too. Nothing when there are none.
 */
export function CustomerCredits({
  orgId,
  customerUserId,
}: {
  orgId: string;
  customerUserId: string;
}) {
  const db = useAccountSync().sync?.db ?? null;
  const { balances } = useCreditBalances(db, orgId, customerUserId);
  return <CreditBalances balances={balances} />;
}
