import { useState } from 'react';
import type { CsvRecord } from '@platform/schema/imports/csv';
import { csvMessages } from '@platform/schema/imports/csv';
import { importMessages, type RowError } from '@platform/schema/imports/import-rules';
import { pageCount, pageNumbers, pageOf, showsPageNumbers } from '../preview.ts';

/**
 * Preview mode (spec §2, §9): the rows as they will be imported, 50 a page (page numbers when
 * there are more than three pages), at most 400 px high; the bad rows listed under the spec's
 * heading with their row number, message and data.
 */
export function CsvPreview({
  columns,
  records,
  errors,
}: {
  columns: readonly string[];
  records: CsvRecord[];
  errors: RowError[];
}) {
  const [page, setPage] = useState(0);
  const pages = pageCount(records.length);
  const shown = pageOf(records, Math.min(page, pages - 1));
  const badRows = new Set(errors.map((error) => error.row));
  return (
    <div className="import-preview">
      {errors.length > 0 && <RowErrors errors={errors} />}
      {records.length === 0 ? (
        <p className="empty-state" role="status">
          {csvMessages.empty}
        </p>
      ) : (
        <>
          <div
            className="import-preview-scroll"
            tabIndex={0}
            role="region"
            aria-label="Rows to import"
          >
            <table className="data-table import-table">
              <caption className="visually-hidden">
                Rows to import, page {page + 1} of {pages}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((record) => (
                  <tr
                    key={record.row}
                    className={badRows.has(record.row) ? 'import-row-bad' : undefined}
                  >
                    <th scope="row">{record.row}</th>
                    {columns.map((column, i) => (
                      <td key={column}>{record.cells[i] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && <Pager pages={pages} page={page} onPage={setPage} />}
        </>
      )}
    </div>
  );
}

function Pager({
  pages,
  page,
  onPage,
}: {
  pages: number;
  page: number;
  onPage: (p: number) => void;
}) {
  return (
    <nav className="import-pager" aria-label="Preview pages">
      <button
        type="button"
        className="button button-secondary"
        disabled={page === 0}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      {showsPageNumbers(pages) ? (
        <ol className="import-page-numbers">
          {pageNumbers(pages, page).map((p, i) =>
            p === null ? (
              <li key={`gap-${i}`} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={p}>
                <button
                  type="button"
                  className="button button-secondary"
                  aria-current={p === page ? 'page' : undefined}
                  onClick={() => onPage(p)}
                >
                  <span className="visually-hidden">Page </span>
                  {p + 1}
                </button>
              </li>
            ),
          )}
        </ol>
      ) : (
        <span>
          Page {page + 1} of {pages}
        </span>
      )}
      <button
        type="button"
        className="button button-secondary"
        disabled={page >= pages - 1}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/** The most bad rows listed at once: a file of wrong rows is fixed at its source, not here. */
const ERRORS_SHOWN = 500;

/** The bad rows, as the preview and the server's check list them (spec §8). */
export function RowErrors({ errors }: { errors: RowError[] }) {
  return (
    <div className="import-errors" role="alert">
      <p className="form-error">{importMessages.errorsHeading}</p>
      <div
        className="import-errors-scroll"
        tabIndex={0}
        role="region"
        aria-label="Rows with errors"
      >
        <table className="data-table">
          <caption className="visually-hidden">Rows with errors</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Error</th>
              <th scope="col">Row data</th>
            </tr>
          </thead>
          <tbody>
            {errors.slice(0, ERRORS_SHOWN).map((error) => (
              <tr key={`${error.row}-${error.message}`}>
                <th scope="row">{error.row}</th>
                <td>{error.message}</td>
                <td className="import-cells">{error.cells.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {errors.length > ERRORS_SHOWN && (
        <p>
          …and {(errors.length - ERRORS_SHOWN).toLocaleString()} more rows with errors. Fix these
          and preview again.
        </p>
      )}
    </div>
  );
}
