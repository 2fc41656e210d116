import { eq } from 'drizzle-orm';
import { users } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export async function updateUserNames(
  db: Db,
  userId: string,
  names: { firstName: string; middleName: string | null; lastName: string },
): Promise<void> {
  await db.update(users).set(names).where(eq(users.id, userId));
}
