import { useSearchParams } from 'react-router';
import { orgIdQuerySchema } from '@platform/schema/auth/auth.zod';
import { defaultWaiverText, paragraphsOf } from '@platform/schema/organizations/documents.zod';
import { PageLoading } from '../../../components/page-loading.tsx';
import { NetworkError } from '../../../lib/api.ts';
import { useWaiver } from '../hooks/use-waiver.ts';

/**
 * /documents/waiver-of-liability: the platform's waiver, or — with ?orgId, as a branded signup
 * links it — that organisation's own (issue 14), in its colours.
 */
export function WaiverOfLiabilityPage() {
  const [params] = useSearchParams();
  const asked = params.get('orgId') ?? '';
  const orgId = orgIdQuerySchema.safeParse(asked).success ? asked.toLowerCase() : null;
  const waiver = useWaiver(orgId);

  if (orgId && waiver.isPending) return <PageLoading label="Loading the waiver…" />;
  if (orgId && waiver.isError)
    return (
      <article className="page document">
        <h1>Waiver of liability</h1>
        <p role="alert">
          {waiver.error instanceof NetworkError
            ? 'You are offline. The waiver needs a connection.'
            : 'This waiver could not be found.'}
        </p>
      </article>
    );
  const text = waiver.data?.text ?? defaultWaiverText;
  return (
    <article className="page document">
      <h1>Waiver of liability</h1>
      {waiver.data && <p className="lead">{waiver.data.orgLabel}</p>}
      {paragraphsOf(text).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </article>
  );
}
