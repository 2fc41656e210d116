import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The `set` of a multi-row `INSERT … ON CONFLICT DO UPDATE`: each named column takes the value
 * the row tried to insert (`excluded.column`).
 */
export function excludedSet<T extends PgTable>(table: T, keys: ReadonlyArray<keyof T['$inferInsert'] & string>): Record<string, SQL> {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  return Object.fromEntries(
    keys.map((key) => {
      const column = columns[key];
      if (!column) throw new Error(`no column ${key}`);
      return [key, sql.raw(`excluded."${column.name}"`)];
    }),
  );
}
