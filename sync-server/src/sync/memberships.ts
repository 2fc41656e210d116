import { and, eq, inArray } from 'drizzle-orm';
import { memberships } from '@platform/schema/db';
import type { Tx } from '../db/open-database.ts';

/** Which of `userIds` hold a membership of this kind in the organisation — one query. */
export async function membersOf(
  tx: Tx,
  orgId: string,
  kind: 'staff' | 'customer',
  userIds: string[],
): Promise<Set<string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Set();
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.kind, kind),
        inArray(memberships.userId, unique),
      ),
    );
  return new Set(rows.map((r) => r.userId));
}
