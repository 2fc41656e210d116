import { Link } from 'react-router';
import type { RosterRow, RosterSortField } from '@platform/schema/crm/crm.zod';
import { displayPhone } from '@platform/schema/crm/phone.rules';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { customerProfilePath, fullNameOf } from '../crm-customer.ts';

type Props = {
  rows: RosterRow[];
  sort: RosterSortField;
  dir: 'asc' | 'desc';
  onSort: (field: RosterSortField) => void;
  busy: boolean;
};

const columns: { label: string; field?: RosterSortField }[] = [
  { label: 'Name', field: 'lastName' },
  { label: 'Email', field: 'email' },
  { label: 'Phone' },
  { label: 'Tags' },
];

/** The roster as a table: sortable column headers announce their order (aria-sort). */
export function RosterTable({ rows, sort, dir, onSort, busy }: Props) {
  const { country } = useOrgFormat().region;
  return (
    <table className="data-table crm-table" aria-busy={busy ? true : undefined}>
      <caption className="visually-hidden">Customers</caption>
      <thead>
        <tr>
          {columns.map(({ label, field }) => {
            const active = field !== undefined && field === sort;
            return (
              <th
                key={label}
                scope="col"
                aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {field ? (
                  <button type="button" className="crm-sort-button" onClick={() => onSort(field)}>
                    {label}
                    <span aria-hidden="true">{active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                ) : (
                  label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.rosterId}>
            <th scope="row">
              <Link to={customerProfilePath(row.rosterId)}>{fullNameOf(row)}</Link>
            </th>
            <td>{row.email ?? '—'}</td>
            <td>{row.phone ? displayPhone(row.phone, country) : '—'}</td>
            <td>
              {row.tags.length > 0 ? (
                <ul className="crm-tags" aria-label="Tags">
                  {row.tags.map((tag) => (
                    <li key={tag} className="crm-tag">
                      {tag}
                    </li>
                  ))}
                </ul>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
