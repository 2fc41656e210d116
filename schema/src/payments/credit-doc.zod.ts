import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

// Punch-card credits as a device holds them (decision 0062): one document per ledger row,
// read-only; a balance is the sum of a person's rows in a group.

export const creditReasons = ['purchase', 'import', 'adjustment', 'booking'] as const;

export const creditDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  customerUserId: z.uuid(),
  productId: z.uuid(),
  productName: z.string().max(120),
  groupId: z.uuid(),
  groupName: z.string().max(120),
  delta: z
    .number()
    .int()
    .min(-100_000)
    .max(100_000)
    .refine((delta) => delta !== 0),
  reason: z.enum(creditReasons),
  createdAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type CreditDoc = z.infer<typeof creditDocSchema>;

export type CreditBalance = {
  customerUserId: string;
  groupId: string;
  groupName: string;
  productName: string;
  /** Credits left: what was given less what was used. */
  balance: number;
  /** Credits given in all (purchases, imports, positive adjustments). */
  given: number;
};

/**
 * Balances per person and group, from ledger rows (the device's and the server's reading):
 * named by the latest row that gave credits. Sorted by group name.
 */
export function creditBalances(
  rows: ReadonlyArray<
    Pick<
      CreditDoc,
      'customerUserId' | 'groupId' | 'groupName' | 'productName' | 'delta' | 'createdAt'
    >
  >,
): CreditBalance[] {
  const byKey = new Map<string, CreditBalance & { namedAt: string }>();
  for (const row of rows) {
    const key = `${row.customerUserId}:${row.groupId}`;
    const entry = byKey.get(key) ?? {
      customerUserId: row.customerUserId,
      groupId: row.groupId,
      groupName: row.groupName,
      productName: row.productName,
      balance: 0,
      given: 0,
      namedAt: '',
    };
    entry.balance += row.delta;
    if (row.delta > 0) {
      entry.given += row.delta;
      if (row.createdAt >= entry.namedAt) {
        entry.groupName = row.groupName;
        entry.productName = row.productName;
        entry.namedAt = row.createdAt;
      }
    }
    byKey.set(key, entry);
  }
  return [...byKey.values()]
    .map(({ namedAt: _namedAt, ...balance }) => balance)
    .sort((a, b) => a.groupName.localeCompare(b.groupName));
}
