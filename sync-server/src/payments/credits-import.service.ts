import {
  importProductsOf,
  type CreditRow,
  type ImportContext,
} from '@platform/schema/imports/import-rules';
import type { Db, Tx } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { refuseAmbiguousEmails } from '../crm/roster-import.service.ts';
import { importableProductRows, insertImportedCredits } from './credits-import.repository.ts';

/**
 * What the import's rules need of the catalogue: its products by name (lower-case) — the ones
 * staff devices have, so the preview in the browser and the server's check agree.
 */
export async function importableProducts(
  db: Db | Tx,
  orgId: string,
): Promise<ImportContext['products']> {
  const rows = await importableProductRows(db, orgId);
  return importProductsOf(rows.map((row) => ({ ...row, punchCardGroups: row.groups })));
}

/**
 * The credits import's writes (issue 17, decision 0071), a batch at a time in the import's one
 * transaction: new rows of the credits ledger (decision 0062, reason `import`), one per group of
 * the product, announced to each person's devices. Idempotent by customer and product: a
 * customer who already has imported credits of that product is left as they are.
 */
export async function importCreditBatch(
  tx: Tx,
  context: { orgId: string; staffUserId: string | null },
  rows: ReadonlyArray<CreditRow & { row: number; cells: string[] }>,
): Promise<{ credited: number; unchanged: number }> {
  await refuseAmbiguousEmails(tx, context.orgId, rows);
  const added = await insertImportedCredits(tx, context.orgId, context.staffUserId, rows);
  const owners = [...new Set(added.map((row) => row.userId))];
  if (owners.length > 0)
    await notifyChange(tx, { collection: 'credits', orgId: context.orgId, ownerIds: owners });
  const credited = new Set(added.map((row) => `${row.userId}\n${row.productId}`)).size;
  return { credited, unchanged: rows.length - credited };
}
