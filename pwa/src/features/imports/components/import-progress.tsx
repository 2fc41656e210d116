import { Link } from 'react-router';
import type { ImportKind } from '@platform/schema/imports/import-rules';
import type { ImportStatus } from '@platform/schema/imports/import.zod';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import type { UploadProgress } from '../upload.ts';
import { RowErrors } from './csv-preview.tsx';

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * The progress bar of an import: the file going up (bytes), then the server's job (rows). A
 * native <progress> with its words beside it, announced politely as it moves.
 */
export function ImportProgress(props: { upload: UploadProgress } | { status: ImportStatus }) {
  let value: number | undefined;
  let max = 1;
  let words: string;
  if ('upload' in props) {
    ({ sentBytes: value, totalBytes: max } = props.upload);
    words = `Sending the file… ${megabytes(value)} of ${megabytes(max)}`;
  } else {
    const { status } = props;
    if (status.status === 'queued' || status.rowsTotal === null) {
      value = undefined;
      words = 'Checking every row…';
    } else {
      value = status.rowsDone;
      max = Math.max(status.rowsTotal, 1);
      words = `Importing… ${status.rowsDone.toLocaleString()} of ${status.rowsTotal.toLocaleString()} rows processed`;
    }
  }
  return (
    <div className="import-progress">
      <progress
        max={max}
        {...(value !== undefined ? { value } : {})}
        aria-label="Import progress"
        aria-describedby="import-progress-words"
      />
      <p id="import-progress-words" role="status">
        {words}
      </p>
      <p className="field-hint">
        You can leave this page: the import goes on, and you can come back to it here.
      </p>
    </div>
  );
}

const outcomeWords: Partial<Record<ImportKind, (result: Record<string, number>) => string>> = {
  customers: (r) =>
    `${r.created ?? 0} new customer${r.created === 1 ? '' : 's'} added, ${r.invited ?? 0} invited (they already had an account), ${r.unchanged ?? 0} already on your list.`,
  credits: (r) =>
    `${r.credited ?? 0} customer${r.credited === 1 ? '' : 's'} given credits, ${r.unchanged ?? 0} already had credits of that product from an import.`,
  'contact-lists': (r) =>
    `${r.added ?? 0} added to their list${r.added === 1 ? '' : 's'}, ${r.unchanged ?? 0} already on ${r.unchanged === 1 ? 'it' : 'them'}.`,
  assignments: (r) =>
    `${r.subscribed ?? 0} subscription${r.subscribed === 1 ? '' : 's'} paid outside the platform recorded, ${r.cardStarted ? `${r.cardStarted} card subscription${r.cardStarted === 1 ? '' : 's'} to charge the card on file from ${r.cardStarted === 1 ? 'its' : 'their'} start date, ` : ''}${r.recorded ?? 0} one-time purchase${r.recorded === 1 ? '' : 's'} recorded, ${r.invited ?? 0} customer${r.invited === 1 ? '' : 's'} emailed an invitation, ${r.unchanged ?? 0} already had ${r.unchanged === 1 ? 'it' : 'theirs'}. Nothing was charged.`,
  tags: (r) =>
    `${r.tagged ?? 0} customer${r.tagged === 1 ? '' : 's'} tagged, ${r.unchanged ?? 0} already had ${r.unchanged === 1 ? 'that tag' : 'those tags'}.`,
};

/** How an import ended: what it did, or why nothing was written. */
export function ImportOutcome({
  status,
  onAnother,
}: {
  status: ImportStatus;
  onAnother: () => void;
}) {
  return (
    <div className="import-outcome">
      {status.status === 'done' ? (
        <>
          <progress max={1} value={1} aria-label="Import progress" />
          <h2>Import finished</h2>
          <p role="status">
            {status.rowsDone.toLocaleString()} row{status.rowsDone === 1 ? '' : 's'} imported from{' '}
            {status.fileName}: {outcomeWords[status.kind]?.(status.result ?? {})}
          </p>
        </>
      ) : (
        <>
          <h2>Nothing was imported</h2>
          {status.failureMessage && (
            <p className="form-error" role="alert">
              {status.failureMessage}
            </p>
          )}
          {status.rowErrors.length > 0 && <RowErrors errors={status.rowErrors} />}
        </>
      )}
      <div className="button-row">
        <Link className="button" to="/dashboard/crm">
          Open customers
        </Link>
        <button type="button" className="button button-secondary" onClick={onAnother}>
          Import another file
        </button>
      </div>
    </div>
  );
}

const statusWords: Record<ImportStatus['status'], string> = {
  uploading: 'Not sent in full',
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Imported',
  refused: 'Refused: rows with errors',
  failed: 'Stopped: nothing written',
};

/** The organisation's latest imports: who may import sees what was imported when. */
export function RecentImports({ imports, loading }: { imports: ImportStatus[]; loading: boolean }) {
  const format = useOrgFormat();
  return (
    <section className="import-recent" aria-labelledby="import-recent-heading">
      <h2 id="import-recent-heading">Recent imports</h2>
      {loading ? (
        <p role="status">Loading…</p>
      ) : imports.length === 0 ? (
        <p>No imports yet.</p>
      ) : (
        <ul>
          {imports.map((i) => (
            <li key={i.id}>
              <strong>{i.fileName}</strong> · {format.dateTime(i.createdAt)} ·{' '}
              {statusWords[i.status]}
              {i.status === 'done' && ` · ${i.rowsDone.toLocaleString()} rows`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
