import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import type { AccountDatabase } from '../../../db/database.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { resolveCustomer } from '../api/resolve-customer.ts';
import { customerProfilePath } from '../crm-customer.ts';

type Resolution =
  { status: 'found'; rosterId: string; for: string } | { status: 'not-found'; for: string };

/**
 * /dashboard/crm/redirect?rosterId=… | ?userId=…: lands on the customer's profile, or on the
 * not-found page for an id of another organisation (the server answers 404, never its data).
 * Offline, the replicated roster names the customer.
 */
export function CrmRedirectPage({ notFound }: { notFound: ReactNode }) {
  const [params] = useSearchParams();
  const rosterId = params.get('rosterId');
  const userId = params.get('userId');
  const { sync } = useAccountSync();
  const db = sync?.db ?? null;
  const [resolution, setResolution] = useState<Resolution | null>(null);
  const asked = `${rosterId ?? ''}|${userId ?? ''}`;

  useEffect(() => {
    const target = rosterId ? { rosterId } : userId ? { userId } : null;
    if (!target) return;
    const controller = new AbortController();
    resolveCustomer(target, controller.signal).then(
      (found) => setResolution({ status: 'found', rosterId: found, for: asked }),
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof NetworkError) {
          const local = await findLocally(db, target);
          if (!controller.signal.aborted)
            setResolution(
              local
                ? { status: 'found', rosterId: local, for: asked }
                : { status: 'not-found', for: asked },
            );
          return;
        }
        if (!(error instanceof ApiError)) console.error('crm redirect failed', error);
        setResolution({ status: 'not-found', for: asked });
      },
    );
    return () => controller.abort();
  }, [rosterId, userId, asked, db]);

  if (!rosterId && !userId) return notFound;
  if (!resolution || resolution.for !== asked)
    return <PageLoading label="Opening customer profile…" />;
  if (resolution.status === 'not-found') return notFound;
  return <Navigate to={customerProfilePath(resolution.rosterId)} replace />;
}

async function findLocally(
  db: AccountDatabase | null,
  target: { rosterId: string } | { userId: string },
): Promise<string | null> {
  if (!db) return 'rosterId' in target ? target.rosterId : null;
  const selector = 'rosterId' in target ? { id: target.rosterId } : { 'athlete.id': target.userId };
  const doc = await db.collections.roster.findOne({ selector }).exec();
  return doc ? doc.id : null;
}
