import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import type { AccountDatabase } from '../../../db/database.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { retryServerFaults } from '../../../lib/query-retry.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { resolveCustomer } from '../api/resolve-customer.ts';
import { customerProfilePath } from '../crm-customer.ts';

type Target = { rosterId: string } | { userId: string };

/**
 * /dashboard/crm/redirect?rosterId=… | ?userId=…: lands on the customer's profile. The roster on
 * this device names the customer first (issue 13: the replica is the one source); only a
 * customer not on the device yet is asked of the server, which answers 404 for another
 * organisation's id (never its data). Not found either way: the not-found page.
 */
export function CrmRedirectPage({ notFound }: { notFound: ReactNode }) {
  const [params] = useSearchParams();
  const rosterId = params.get('rosterId');
  const userId = params.get('userId');
  const target: Target | null = rosterId ? { rosterId } : userId ? { userId } : null;
  const { sync } = useAccountSync();
  const db = sync?.db ?? null;
  const resolution = useQuery({
    queryKey: ['crm-redirect', rosterId, userId, db !== null],
    queryFn: async ({ signal }) => {
      if (!target) return null;
      const local = db ? await findLocally(db, target) : null;
      if (local) return local;
      try {
        return await resolveCustomer(target, signal);
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) return null;
        throw error;
      }
    },
    enabled: target !== null,
    retry: retryServerFaults,
  });

  if (!target) return notFound;
  if (resolution.isPending) return <PageLoading label="Opening customer profile…" />;
  if (!resolution.data) return notFound;
  return <Navigate to={customerProfilePath(resolution.data)} replace />;
}

async function findLocally(db: AccountDatabase, target: Target): Promise<string | null> {
  const selector = 'rosterId' in target ? { id: target.rosterId } : { 'athlete.id': target.userId };
  const doc = await db.collections.roster.findOne({ selector }).exec();
  return doc ? doc.id : null;
}
