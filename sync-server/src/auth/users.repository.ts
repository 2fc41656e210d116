import { desc, eq, or, sql } from 'drizzle-orm';
import { users } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export type UserRow = typeof users.$inferSelect;
export type UserAttributes = UserRow['attributes'];
export type NewUser = typeof users.$inferInsert;

/** Emails are stored lower-cased; usernames compare case-insensitively. An email match wins. */
export async function findUserByIdentifier(
  db: Db,
  identifier: string,
): Promise<UserRow | undefined> {
  const value = identifier.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.email, value), sql`lower(${users.username}) = ${value}`))
    .orderBy(desc(sql`${users.email} is not distinct from ${value}`))
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return row;
}

export async function findUsersByEmails(
  db: Db,
  emails: string[],
): Promise<Array<{ id: string; email: string | null }>> {
  if (emails.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(or(...emails.map((email) => eq(users.email, email))));
}

export async function findUserByGoogleSubject(
  db: Db,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.googleSubject, subject));
  return row;
}

export async function insertUser(db: Db, values: NewUser): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email?.trim().toLowerCase() ?? null })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned nothing');
  return row.id;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function linkGoogleSubject(db: Db, userId: string, subject: string) {
  await db
    .update(users)
    .set({
      googleSubject: subject,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
    })
    .where(eq(users.id, userId));
}

/** Merges into users.attributes in SQL, so concurrent writers of different keys both survive. */
export async function mergeUserAttributes(db: Db, userId: string, patch: Partial<UserAttributes>) {
  await db
    .update(users)
    .set({ attributes: sql`${users.attributes} || ${JSON.stringify(patch)}::jsonb` })
    .where(eq(users.id, userId));
}
