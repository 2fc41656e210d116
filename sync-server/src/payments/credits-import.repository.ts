import { sql } from 'drizzle-orm';
import type { CreditRow } from '@platform/schema/imports/import-rules';
import type { Db, Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';

/**
 * The products an import may name, by name (lower-case), as staff devices have them: archived
 * products are not offered (payments.sync.ts). In id order, as the browser reads them.
 */
export async function importableProductRows(db: Db | Tx, orgId: string) {
  return rowsOf<{ id: string; name: string; type: string; groups: number; priceMinor: number }>(
    await db.execute(sql`
      select id, name, type, price_minor as "priceMinor",
        jsonb_array_length(punch_card_configuration->'groups')::int as groups
      from products
      where org_id = ${orgId} and state <> 'archived' and not deleted
      order by id`),
  );
}

/**
 * Imported credits, a batch in one statement (one JSON parameter): each row gives its credits in
 * every punch-card group of its product — unless that customer already has imported credits of
 * that product, which makes a second import of the same file give nothing. Answers who got what.
 */
export async function insertImportedCredits(
  tx: Tx,
  orgId: string,
  staffUserId: string | null,
  rows: ReadonlyArray<Pick<CreditRow, 'email' | 'productId' | 'credits'>>,
): Promise<Array<{ userId: string; productId: string }>> {
  const json = JSON.stringify(
    rows.map((row) => ({ email: row.email, product_id: row.productId, credits: row.credits })),
  );
  return rowsOf<{ user_id: string; product_id: string }>(
    await tx.execute(sql`
      with asked as (
        select distinct on (r.user_id, i.product_id) r.user_id, i.product_id, i.credits
        from json_to_recordset(${json}::json) as i(email text, product_id uuid, credits int)
        join roster_items r on r.org_id = ${orgId} and not r.deleted and lower(r.email) = i.email
        where not exists (
          select 1 from punch_card_credits c
          where c.org_id = ${orgId} and c.customer_user_id = r.user_id
            and c.product_id = i.product_id and c.reason = 'import' and not c.deleted)
        order by r.user_id, i.product_id
      )
      insert into punch_card_credits
        (org_id, customer_user_id, product_id, product_name, group_id, group_name, delta, reason,
         reference, created_by_user_id)
      select ${orgId}, a.user_id, p.id, p.name, (g->>'id')::uuid, g->>'name', a.credits, 'import',
        'csv-import', ${staffUserId}
      from asked a
      -- Checked before the import's lock: a product archived or removed since gives nothing.
      join products p on p.id = a.product_id and p.org_id = ${orgId}
        and p.state <> 'archived' and not p.deleted and p.type = 'one-time'
      -- A group is one balance, whatever the product's configuration repeats.
      cross join lateral (
        select distinct on (e->>'id') e as g
        from jsonb_array_elements(p.punch_card_configuration->'groups') as e
        order by e->>'id'
      ) as groups
      order by a.user_id, p.id
      returning customer_user_id as user_id, product_id`),
  ).map((row) => ({ userId: row.user_id, productId: row.product_id }));
}
