import type { RosterSortField } from '@platform/schema/crm/crm.zod';
import type { RosterFilters } from '../hooks/use-roster-search.ts';

type Props = {
  filters: RosterFilters;
  tags: string[];
  onChange: (filters: RosterFilters) => void;
};

const sortLabels: Record<RosterSortField, string> = {
  lastName: 'Last name',
  firstName: 'First name',
  email: 'Email',
  createdAt: 'Date added',
};

/** Search (name, email, phone), tag filter and sort of the roster. */
export function RosterToolbar({ filters, tags, onChange }: Props) {
  return (
    <div className="crm-toolbar" role="search">
      <div className="field crm-search">
        <label htmlFor="crm-search">Search customers</label>
        <input
          id="crm-search"
          type="search"
          placeholder="Name, email or phone"
          autoComplete="off"
          value={filters.q}
          onChange={(event) => onChange({ ...filters, q: event.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="crm-tag">Tag</label>
        <select
          id="crm-tag"
          value={filters.tag ?? ''}
          onChange={(event) => onChange({ ...filters, tag: event.target.value || undefined })}
        >
          <option value="">All tags</option>
          {tags.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="crm-sort">Sort by</label>
        <select
          id="crm-sort"
          value={`${filters.sort}:${filters.dir}`}
          onChange={(event) => {
            const [sort, dir] = event.target.value.split(':') as [RosterSortField, 'asc' | 'desc'];
            onChange({ ...filters, sort, dir });
          }}
        >
          {(Object.keys(sortLabels) as RosterSortField[]).flatMap((field) =>
            (['asc', 'desc'] as const).map((dir) => (
              <option key={`${field}:${dir}`} value={`${field}:${dir}`}>
                {sortLabels[field]}{' '}
                {dir === 'asc'
                  ? field === 'createdAt'
                    ? '(oldest first)'
                    : '(A–Z)'
                  : field === 'createdAt'
                    ? '(newest first)'
                    : '(Z–A)'}
              </option>
            )),
          )}
        </select>
      </div>
    </div>
  );
}
