import { and, eq, gt, or, sql } from 'drizzle-orm';
import { loginAttempts } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

/** Records an attempt as failed until proven otherwise (see login.service.ts). */
export async function insertFailedAttempt(db: Db, identifier: string, ip: string): Promise<number> {
  const [row] = await db
    .insert(loginAttempts)
    .values({ identifier, ip, succeeded: false })
    .returning({ id: loginAttempts.id });
  if (!row) throw new Error('login attempt insert returned nothing');
  return row.id;
}

export async function markAttemptSucceeded(db: Db, id: number) {
  await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, id));
}

export async function countRecentFailures(db: Db, identifier: string, ip: string, since: Date) {
  const [row] = await db
    .select({
      byIdentifier:
        sql<number>`count(*) filter (where ${loginAttempts.identifier} = ${identifier})`.mapWith(
          Number,
        ),
      byIp: sql<number>`count(*) filter (where ${loginAttempts.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.createdAt, since),
        or(eq(loginAttempts.identifier, identifier), eq(loginAttempts.ip, ip)),
      ),
    );
  return { byIdentifier: row?.byIdentifier ?? 0, byIp: row?.byIp ?? 0 };
}
