import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { guardianLinks, users } from '@platform/schema/db';
import { rowsOf, type Db } from '../db/open-database.ts';

/** The children a guardian may switch to: links their owner has confirmed (decision 0035). */
export async function listChildren(db: Db, guardianUserId: string) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(guardianLinks)
    .innerJoin(users, eq(users.id, guardianLinks.childUserId))
    .where(
      and(
        eq(guardianLinks.guardianUserId, guardianUserId),
        isNotNull(guardianLinks.confirmedAt),
      ),
    )
    .orderBy(asc(guardianLinks.createdAt), asc(users.firstName));
}

/** Guardian links waiting for this account's owner to confirm them. */
export async function countLinksAwaitingOwner(db: Db, childUserId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(guardianLinks)
    .where(and(eq(guardianLinks.childUserId, childUserId), isNull(guardianLinks.confirmedAt)));
  return row?.count ?? 0;
}

/** Links a guardian and a child; false when they were linked already (nothing written). */
export async function linkGuardian(
  db: Db,
  link: typeof guardianLinks.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(guardianLinks)
    .values(link)
    .onConflictDoNothing()
    .returning({ child: guardianLinks.childUserId });
  return rows.length > 0;
}

/** Removes the link only (both accounts stay); false when there was none. */
export async function unlinkGuardian(
  db: Db,
  guardianUserId: string,
  childUserId: string,
): Promise<boolean> {
  const rows = await db
    .delete(guardianLinks)
    .where(
      and(
        eq(guardianLinks.guardianUserId, guardianUserId),
        eq(guardianLinks.childUserId, childUserId),
      ),
    )
    .returning({ child: guardianLinks.childUserId });
  return rows.length > 0;
}

/** Whether `ancestorId` is a guardian of `personId`, directly or through others. */
export async function isAncestorOf(db: Db, ancestorId: string, personId: string): Promise<boolean> {
  // UNION (not UNION ALL) makes the walk stop should links ever form a loop.
  const result = await db.execute(sql`
    with recursive descendants(id) as (
      select ${guardianLinks.childUserId} from ${guardianLinks}
       where ${guardianLinks.guardianUserId} = ${ancestorId}
      union
      select gl.child_user_id from guardian_links gl
        join descendants d on gl.guardian_user_id = d.id
    )
    select exists (select 1 from descendants where id = ${personId}) as found`);
  return rowsOf<{ found: boolean }>(result)[0]?.found === true;
}
