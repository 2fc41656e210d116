import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { csvMessages, decodeCsvBytes, isCsvFileName } from '@platform/schema/imports/csv';
import { mayImport } from '@platform/schema/imports/import-access';
import {
  importColumns,
  importKinds,
  importProductsOf,
  minimumColumns,
  type ImportKind,
} from '@platform/schema/imports/import-rules';
import { importSettled, type ImportStatus } from '@platform/schema/imports/import.zod';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { localToday } from '../../../lib/local-today.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { contactListsForPreview } from '../api/contact-lists.ts';
import { getImport, listImports } from '../api/imports.ts';
import { CsvPreview } from '../components/csv-preview.tsx';
import { ImportOutcome, ImportProgress, RecentImports } from '../components/import-progress.tsx';
import { previewOf, textAreaRows, type Preview } from '../preview.ts';
import { uploadImport, type UploadProgress } from '../upload.ts';
import '../imports.css';

const kindLabels: Record<ImportKind, string> = {
  customers: 'Customers',
  tags: 'Tags on customers',
  assignments: 'Product assignments',
  credits: 'Punch-card credits',
  'contact-lists': 'Contact list members',
};

/**
 * /dashboard/crm/import (issue 17): paste rows or load a .csv file (input mode), see every row
 * and every bad one before anything is sent (preview mode, the rules the server runs again),
 * then upload in chunks and follow the import — a job on the server, all or nothing — to its
 * end, also after a reload.
 */
export function ImportPage() {
  const user = useSignedInUser();
  const online = useOnlineStatus();
  const { sync, status: syncStatus } = useAccountSync();
  const queryClient = useQueryClient();
  const { country } = useOrgFormat().region;
  const kinds = importKinds.filter((kind) => mayImport(user.claims, kind));
  const [kind, setKind] = useState<ImportKind>(kinds[0] ?? 'customers');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<Extract<Preview, { ok: true }> | null>(null);
  const [checking, setChecking] = useState(false);
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const [trackedId, setTrackedId] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { kind: useId(), text: useId(), columns: useId(), waiting: useId() };

  const recent = useQuery({
    queryKey: ['imports'],
    queryFn: ({ signal }) => listImports(signal),
    enabled: kinds.length > 0,
  });
  // After a reload: the import still running is followed again.
  const running = recent.data?.imports.find(
    (i) => !importSettled(i.status) && i.status !== 'uploading',
  );
  const currentId = trackedId ?? running?.id ?? null;
  const current = useQuery({
    queryKey: ['import', currentId],
    queryFn: ({ signal }) => getImport(currentId!, signal),
    enabled: currentId !== null,
    refetchInterval: (query) =>
      query.state.data && importSettled(query.state.data.status) ? false : 1000,
  });
  const tracked: ImportStatus | null = current.data ?? null;
  // Once it ends, the list of recent imports says so too.
  const settledStatus = tracked && importSettled(tracked.status) ? tracked.status : null;
  useEffect(() => {
    if (settledStatus) void queryClient.invalidateQueries({ queryKey: ['imports'] });
  }, [settledStatus, queryClient]);
  // Every kind but customers names customers (and credits products) from this device's copy:
  // the preview waits until it is open and caught up, or it would call known people unknown.
  const deviceReady =
    kind === 'customers' || (sync?.db !== undefined && syncStatus?.state !== 'syncing');
  const busy = upload !== null || (tracked !== null && !importSettled(tracked.status));

  if (kinds.length === 0)
    return (
      <section className="page">
        <h1>Import from a spreadsheet</h1>
        <p role="alert">You are not allowed to import data for this organisation.</p>
      </section>
    );

  const loadFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPreview(null);
    if (!isCsvFileName(file.name)) return setProblem(csvMessages.notCsv);
    const decoded = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    if (!decoded.ok) return setProblem(decoded.message);
    setProblem(null);
    setFileName(file.name);
    setText(decoded.text);
  };

  const showPreview = async () => {
    setChecking(true);
    setProblem(null);
    try {
      // Tags name customers: the "valid emails list" is the customer list on this device.
      const customerEmails =
        kind === 'customers' || !sync?.db
          ? new Set<string>()
          : new Set(
              (await sync.db.collections.roster.find().exec()).flatMap((doc) =>
                doc.athlete.email ? [doc.athlete.email.toLowerCase()] : [],
              ),
            );
      // Credits name products: the catalogue on this device (archived ones are not on it).
      const products =
        (kind === 'credits' || kind === 'assignments') && sync?.db
          ? importProductsOf(
              (await sync.db.collections.products.find({ sort: [{ id: 'asc' }] }).exec()).map(
                (doc) => ({
                  id: doc.id,
                  name: doc.name,
                  type: doc.type,
                  punchCardGroups: doc.punchCardConfiguration.groups.length,
                  priceMinor: doc.priceMinor,
                }),
              ),
            )
          : new Map();
      // Contact lists are server state: read now (the import needs the network anyway).
      const contactLists = kind === 'contact-lists' ? await contactListsForPreview() : new Map();
      const result = previewOf(kind, text, {
        customerEmails,
        products,
        contactLists,
        today: localToday(),
        country,
      });
      if (!result.ok) setProblem(result.message);
      else setPreview(result);
    } catch (error) {
      setProblem(failureText(error, 'Reading your contact lists'));
    } finally {
      setChecking(false);
    }
  };

  const runImport = async () => {
    if (!preview) return;
    setProblem(null);
    setUpload({ sentBytes: 0, totalBytes: 1 });
    try {
      const started = await uploadImport(
        {
          kind,
          fileName: fileName ?? `${kind}.csv`,
          bytes: new TextEncoder().encode(text),
        },
        setUpload,
      );
      queryClient.setQueryData(['import', started.id], started);
      setTrackedId(started.id);
      setPreview(null);
      void queryClient.invalidateQueries({ queryKey: ['imports'] });
    } catch (error) {
      setProblem(failureText(error, 'Sending the file'));
    } finally {
      setUpload(null);
    }
  };

  const startOver = () => {
    setTrackedId(null);
    setText('');
    setFileName(null);
    setPreview(null);
    void queryClient.invalidateQueries({ queryKey: ['imports'] });
    queryClient.removeQueries({ queryKey: ['import'] });
    if (running) queryClient.setQueryData(['imports'], { imports: [] });
  };

  return (
    <section className="page imports">
      <p>
        <Link to="/dashboard/crm">← Customers</Link>
      </p>
      <h1>Import from a spreadsheet</h1>

      {tracked && upload === null ? (
        <div className="import-tracked">
          {importSettled(tracked.status) ? (
            <ImportOutcome status={tracked} onAnother={startOver} />
          ) : (
            <ImportProgress status={tracked} />
          )}
        </div>
      ) : upload ? (
        <ImportProgress upload={upload} />
      ) : (
        <>
          <div className="field">
            <label htmlFor={ids.kind}>What are you importing?</label>
            <select
              id={ids.kind}
              value={kind}
              disabled={busy}
              onChange={(event) => {
                setKind(event.target.value as ImportKind);
                setPreview(null);
              }}
            >
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {kindLabels[k]}
                </option>
              ))}
            </select>
          </div>
          <p id={ids.columns} className="field-hint">
            Columns, in this order: <code>{importColumns[kind].join(', ')}</code> — the first{' '}
            {minimumColumns[kind]} are needed; a header row is optional. Only .csv files (from your
            spreadsheet: “CSV UTF-8”).
          </p>

          {preview ? (
            <>
              <p role="status">
                {preview.rowCount} row{preview.rowCount === 1 ? '' : 's'} read
                {preview.errors.length > 0
                  ? `, ${preview.errors.length} with errors. Fix them to import.`
                  : ', ready to import.'}
              </p>
              <CsvPreview
                columns={importColumns[kind]}
                records={preview.records}
                errors={preview.errors}
              />
              <div className="button-row">
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setPreview(null)}
                >
                  Edit rows
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={preview.errors.length > 0 || preview.rowCount === 0 || !online}
                  onClick={() => void runImport()}
                >
                  Import {preview.rowCount} row{preview.rowCount === 1 ? '' : 's'}
                </button>
              </div>
              {!online && <p role="status">Importing needs a connection: you are offline.</p>}
            </>
          ) : (
            <>
              <div className="field">
                <label htmlFor={ids.text}>Rows (CSV)</label>
                <textarea
                  id={ids.text}
                  aria-describedby={ids.columns}
                  rows={textAreaRows(text)}
                  spellCheck={false}
                  value={text}
                  onChange={(event) => {
                    setText(event.target.value);
                    setProblem(null);
                  }}
                  placeholder={importColumns[kind].slice(0, minimumColumns[kind]).join(',')}
                />
              </div>
              {fileName && <p className="field-hint">Loaded from {fileName}.</p>}
              <div className="button-row">
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => fileInput.current?.click()}
                >
                  Load CSV file
                </button>
                <input
                  ref={fileInput}
                  type="file"
                  accept=".csv,text/csv"
                  className="visually-hidden"
                  tabIndex={-1}
                  aria-label="CSV file"
                  onChange={(event) => void loadFile(event)}
                />
                <button
                  type="button"
                  className="button"
                  disabled={checking || !deviceReady}
                  aria-describedby={deviceReady ? undefined : ids.waiting}
                  onClick={() => void showPreview()}
                >
                  {checking ? 'Checking…' : 'Preview'}
                </button>
                {!deviceReady && (
                  <p id={ids.waiting} className="field-hint" role="status">
                    Getting your customer list onto this device…
                  </p>
                )}
              </div>
            </>
          )}
        </>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <RecentImports imports={recent.data?.imports ?? []} loading={recent.isPending} />
    </section>
  );
}
