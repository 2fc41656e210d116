import { and, asc, eq } from 'drizzle-orm';
import { guardianLinks, users } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export async function isGuardianOf(
  db: Db,
  guardianUserId: string,
  childUserId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ child: guardianLinks.childUserId })
    .from(guardianLinks)
    .where(
      and(
        eq(guardianLinks.guardianUserId, guardianUserId),
        eq(guardianLinks.childUserId, childUserId),
      ),
    );
  return row !== undefined;
}

export async function listChildren(db: Db, guardianUserId: string) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(guardianLinks)
    .innerJoin(users, eq(users.id, guardianLinks.childUserId))
    .where(eq(guardianLinks.guardianUserId, guardianUserId))
    .orderBy(asc(guardianLinks.createdAt), asc(users.firstName));
}

export async function insertGuardianLink(
  db: Db,
  link: { guardianUserId: string; childUserId: string; orgId: string | null },
) {
  await db.insert(guardianLinks).values(link);
}
