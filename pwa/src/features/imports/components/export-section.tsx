import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EXPORT_DAYS, type ExportStatus } from '@platform/schema/imports/export.zod';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { createExport, exportDownloadPath, listExports } from '../api/exports.ts';
import '../imports.css';

const megabytes = (bytes: number) => `${Math.max(0.1, bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * 'Export all data' (issue 17) on the organisation page, for staff with manage-org-settings:
 * one zip of everything the organisation keeps here, made in the background with a progress
 * bar, downloadable for 7 days. The list is server state (TanStack Query), asked again every
 * second while an export is being made.
 */
export function ExportSection() {
  const online = useOnlineStatus();
  const format = useOrgFormat();
  const queryClient = useQueryClient();
  const exports = useQuery({
    queryKey: ['exports'],
    queryFn: ({ signal }) => listExports(signal),
    refetchInterval: (query) =>
      query.state.data?.exports.some((e) => e.status === 'queued' || e.status === 'running')
        ? 1000
        : false,
  });
  const start = useMutation({
    mutationFn: createExport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['exports'] }),
  });
  const list = exports.data?.exports ?? [];
  const making = list.some((e) => e.status === 'queued' || e.status === 'running');
  return (
    <section className="card" aria-labelledby="export-heading">
      <h2 id="export-heading">Export all data</h2>
      <p>
        One zip file of everything your organisation keeps here — customers with their tags, notes,
        metrics and families, products, coupons, subscriptions, invoices, staff time, bookings and
        branding — as CSV files (customers.csv and tags.csv import into a new organisation as they
        are) and one JSON file. It is ready to download for {EXPORT_DAYS} days. Passwords, sign-in
        tokens and card details are never in it.
      </p>
      <button
        type="button"
        className="button"
        disabled={!online || making || start.isPending}
        onClick={() => start.mutate()}
      >
        {start.isPending ? 'Starting…' : 'Export all data'}
      </button>
      {!online && <p role="status">Exporting needs a connection: you are offline.</p>}
      {start.isError && (
        <p className="form-error" role="alert">
          {failureText(start.error, 'Exporting')}
        </p>
      )}
      {exports.isPending ? (
        <p role="status">Loading…</p>
      ) : list.length === 0 ? (
        <p>No exports yet.</p>
      ) : (
        <ul className="export-list">
          {list.map((item) => (
            <li key={item.id}>
              <ExportLine item={item} made={format.dateTime(item.createdAt)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ExportLine({ item, made }: { item: ExportStatus; made: string }) {
  if (item.status === 'queued' || item.status === 'running') {
    const total = item.rowsTotal ?? 0;
    return (
      <div className="import-progress">
        <span>Export of {made}: </span>
        <progress
          max={Math.max(total, 1)}
          {...(total > 0 ? { value: item.rowsDone } : {})}
          aria-label="Export progress"
        />
        <span role="status">
          {total > 0
            ? `${item.rowsDone.toLocaleString()} of ${total.toLocaleString()} rows written`
            : 'Starting…'}
        </span>
      </div>
    );
  }
  if (item.status === 'failed')
    return (
      <span>
        Export of {made}: {item.failureMessage}
      </span>
    );
  return item.downloadable ? (
    <span>
      Export of {made} ·{' '}
      <a href={exportDownloadPath(item.id)} download>
        Download ({megabytes(item.bytes)})
      </a>
    </span>
  ) : (
    <span>Export of {made} · expired</span>
  );
}
