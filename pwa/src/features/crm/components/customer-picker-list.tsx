import { useState } from 'react';
import type { RosterRow } from '@platform/schema/crm/crm.zod';
import { fullNameOf } from '../crm-customer.ts';
import { crmTexts } from '../crm-texts.ts';
import { useRosterSearch } from '../hooks/use-roster-search.ts';
import '../crm.css';

export type CustomerPickerListProps = {
  /**
   * A customer was picked. While a returned promise is pending, that row shows a spinner and
   * the others are disabled (spec §4 Customer picker).
   */
  onSelect: (customer: RosterRow) => void | Promise<void>;
  /** Label of the search field. */
  searchLabel?: string;
  /** Rows per page. */
  pageSize?: number;
  /** People never offered (by user id): choosing a guardian never offers the person themself. */
  exclude?: readonly string[];
};

/** spec §2 Customer picker, the searchable list variant (also the body of the modal). */
export function CustomerPickerList({
  onSelect,
  searchLabel = 'Search customers',
  pageSize = 20,
  exclude = [],
}: CustomerPickerListProps) {
  const [q, setQ] = useState('');
  const found = useRosterSearch({ q, tag: undefined, sort: 'lastName', dir: 'asc' }, pageSize);
  const results = { ...found, rows: found.rows.filter((row) => !exclude.includes(row.userId)) };
  const [pending, setPending] = useState<string | null>(null);
  // The previous search's rows stay on screen until the search typed is answered
  // (use-roster-search.ts): they are marked as such — they may still be picked.
  const searching = results.refreshing && results.rows.length > 0;

  const pick = async (row: RosterRow) => {
    const answer = onSelect(row);
    if (!answer) return;
    setPending(row.rosterId);
    try {
      await answer;
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="crm-picker">
      <div className="field">
        <label htmlFor="crm-picker-search">{searchLabel}</label>
        <input
          id="crm-picker-search"
          type="search"
          autoComplete="off"
          placeholder="Name, email or phone"
          value={q}
          onChange={(event) => setQ(event.target.value)}
        />
      </div>
      {results.rows.length === 0 && (results.status === 'loading' || results.refreshing) ? (
        <p role="status" className="crm-loading">
          <span className="crm-spinner" aria-hidden="true" />
          Loading customers…
        </p>
      ) : results.status === 'failed' ? (
        <p className="form-error" role="alert">
          {crmTexts.rosterLoadFailed}
        </p>
      ) : results.rows.length === 0 ? (
        <p role="status" className="crm-muted">
          No customers match your search.
        </p>
      ) : (
        <>
          <p role="status" className="crm-loading crm-picker-searching">
            {searching && (
              <>
                <span className="crm-spinner" aria-hidden="true" />
                Searching…
              </>
            )}
          </p>
          <ul
            className="crm-picker-list"
            aria-label="Customers"
            aria-busy={pending || searching ? true : undefined}
          >
            {results.rows.map((row) => {
              const busy = pending === row.rosterId;
              return (
                <li key={row.rosterId}>
                  <button
                    type="button"
                    className="crm-picker-row"
                    disabled={pending !== null}
                    aria-busy={busy ? true : undefined}
                    onClick={() => void pick(row)}
                  >
                    <span className="crm-picker-name">{fullNameOf(row)}</span>
                    {row.email && <span className="crm-muted">{row.email}</span>}
                    {busy && <span className="crm-spinner" role="status" aria-label="Working…" />}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {results.hasMore && (
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={results.loadingMore || pending !== null}
          onClick={results.loadMore}
        >
          {results.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
