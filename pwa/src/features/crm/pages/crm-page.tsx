import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { RosterSortField } from '@platform/schema/crm/crm.zod';
import { PageLoading } from '../../../components/page-loading.tsx';
import { AddCustomerDialog } from '../components/add-customer-dialog.tsx';
import type { CustomerAction } from '../components/post-invite-actions.tsx';
import type { ProductPart } from '../product-part.ts';
import { RosterTable } from '../components/roster-table.tsx';
import { RosterToolbar } from '../components/roster-toolbar.tsx';
import { customerProfilePath } from '../crm-customer.ts';
import { useCrmTags } from '../hooks/use-crm-tags.ts';
import { useRosterSearch, type RosterFilters } from '../hooks/use-roster-search.ts';
import { crmTexts } from '../crm-texts.ts';
import '../crm.css';

type Props = {
  /** Post-invite 'another action on the customer' (spec §4), composed in app/. */
  customerAction?: CustomerAction;
  /** The Add customer dialog's product part (features/products, via app/), for staff who sell. */
  productPart?: ProductPart;
  /** The organisation's open invitations to products (features/products, via app/). */
  pendingInvites?: ReactNode;
};

const initialFilters: RosterFilters = { q: '', tag: undefined, sort: 'lastName', dir: 'asc' };

/** /dashboard/crm (claim view-customers): the roster, searchable online and offline. */
export function CrmPage({ customerAction, productPart, pendingInvites }: Props) {
  const navigate = useNavigate();
  const [filters, setFilters] = useState(initialFilters);
  const [adding, setAdding] = useState(false);
  const results = useRosterSearch(filters);
  const tags = useCrmTags(
    results.source === 'server',
    results.rows.flatMap((row) => row.tags),
  );
  const searching = filters.q.trim() !== '' || filters.tag !== undefined;
  const sortBy = (field: RosterSortField) =>
    setFilters((f) => ({
      ...f,
      sort: field,
      dir: f.sort === field && f.dir === 'asc' ? 'desc' : 'asc',
    }));

  return (
    <section className="page crm">
      <div className="crm-heading">
        <h1>Customers</h1>
        <div className="button-row">
          <Link className="button button-secondary" to="/dashboard/crm/import">
            Import from CSV
          </Link>
          <Link className="button button-secondary" to="/dashboard/crm/lists">
            Contact lists
          </Link>
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Add customer
          </button>
        </div>
      </div>
      {results.source === 'device' && (
        <p className="crm-offline" role="status">
          You are offline: searching the customers saved on this device.
        </p>
      )}
      <RosterToolbar filters={filters} tags={tags} onChange={setFilters} />
      <RosterSummary results={results} />
      {results.status === 'failed' && (
        <p className="form-error" role="alert">
          {crmTexts.rosterLoadFailed}
        </p>
      )}
      {results.status === 'loading' && results.rows.length === 0 ? (
        <PageLoading label="Loading customers…" />
      ) : results.rows.length === 0 && results.status === 'ready' ? (
        searching ? (
          <p role="status">No customers match your search.</p>
        ) : (
          <div className="empty-state" role="status">
            <h2>No customers yet</h2>
            <p>
              Add your first customer to invite them and keep their details here, or{' '}
              <Link to="/dashboard/crm/import">import them from a spreadsheet</Link>.
            </p>
            <button type="button" className="button" onClick={() => setAdding(true)}>
              Add your first customer
            </button>
          </div>
        )
      ) : (
        <RosterTable
          rows={results.rows}
          sort={filters.sort}
          dir={filters.dir}
          onSort={sortBy}
          busy={results.status === 'loading'}
        />
      )}
      {results.hasMore && (
        <button
          type="button"
          className="button button-secondary crm-load-more"
          disabled={results.loadingMore}
          onClick={results.loadMore}
        >
          {results.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
      {pendingInvites}
      {adding && (
        <AddCustomerDialog
          open
          onOpenChange={setAdding}
          {...(productPart ? { productPart } : {})}
          onSent={results.reload}
          onViewProfile={(customer) => navigate(customerProfilePath(customer.rosterId))}
          {...(customerAction
            ? {
                customerAction: {
                  label: customerAction.label,
                  run: (customer) => {
                    setAdding(false);
                    results.reload();
                    customerAction.run(customer);
                  },
                },
              }
            : {})}
        />
      )}
    </section>
  );
}

function RosterSummary({ results }: { results: ReturnType<typeof useRosterSearch> }) {
  if (results.status !== 'ready' || results.total === null) return null;
  const count = `${results.total.toLocaleString()}${results.totalCapped ? '+' : ''}`;
  return (
    <p className="crm-summary" role="status">
      {results.total === 1 ? '1 customer' : `${count} customers`}
    </p>
  );
}
