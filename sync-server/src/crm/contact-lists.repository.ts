import { and, asc, eq, sql } from 'drizzle-orm';
import { contactListMembers, contactLists, rosterItems } from '@platform/schema/db';
import { contactListsByKey } from '@platform/schema/crm/contact-lists.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';

/*
 * Contact lists and their members (issue 17). Every statement names the organisation, so another
 * organisation's list id finds nothing. A member counts only while their roster item is live
 * (roster items are removed softly, contact-list-tables.ts).
 */

export type ContactListRow = { id: string; name: string; memberCount: number };

/**
 * Live members of a list, as a count (a correlated subquery: lists are few, members many). Plain
 * names: drizzle would write the outer column unqualified, which roster_items' own id would take.
 */
const memberCount = sql<number>`(
  select count(*)::int from contact_list_members m
  join roster_items r on r.org_id = m.org_id and r.user_id = m.user_id and not r.deleted
  where m.list_id = contact_lists.id)`;

export async function listsOfOrg(db: Db, orgId: string): Promise<ContactListRow[]> {
  return db
    .select({ id: contactLists.id, name: contactLists.name, memberCount })
    .from(contactLists)
    .where(eq(contactLists.orgId, orgId))
    .orderBy(sql`lower(${contactLists.name})`, asc(contactLists.id));
}

export async function findList(
  db: Db,
  orgId: string,
  id: string,
): Promise<ContactListRow | undefined> {
  const [row] = await db
    .select({ id: contactLists.id, name: contactLists.name, memberCount })
    .from(contactLists)
    .where(and(eq(contactLists.orgId, orgId), eq(contactLists.id, id)));
  return row;
}

/** The new list; a name taken (whatever its case) throws the unique violation. */
/**
 * The organisation's list names, with its lists' name changes held until this transaction ends
 * (two names made at once are checked one after the other).
 */
export async function lockedListNames(tx: Tx, orgId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`contact-lists:${orgId}`}, 0))`,
  );
  return tx
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(eq(contactLists.orgId, orgId));
}

export async function insertList(
  db: Db | Tx,
  orgId: string,
  name: string,
): Promise<ContactListRow> {
  const [row] = await db
    .insert(contactLists)
    .values({ orgId, name })
    .returning({ id: contactLists.id, name: contactLists.name });
  if (!row) throw new Error('contact list not inserted');
  return { ...row, memberCount: 0 };
}

/** Renamed, or undefined when the organisation has no such list. */
export async function renameList(
  db: Db | Tx,
  orgId: string,
  id: string,
  name: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .update(contactLists)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(contactLists.orgId, orgId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return row;
}

export async function deleteList(db: Db, orgId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(contactLists)
    .where(and(eq(contactLists.orgId, orgId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return rows.length > 0;
}

/** A list's live members, named as the roster names them, by last then first name. */
export async function membersOf(db: Db, orgId: string, listId: string, limit: number) {
  return db
    .select({
      userId: rosterItems.userId,
      rosterId: rosterItems.id,
      firstName: rosterItems.firstName,
      lastName: rosterItems.lastName,
      email: rosterItems.email,
    })
    .from(contactListMembers)
    .innerJoin(
      rosterItems,
      and(
        eq(rosterItems.orgId, contactListMembers.orgId),
        eq(rosterItems.userId, contactListMembers.userId),
        eq(rosterItems.deleted, false),
      ),
    )
    .where(and(eq(contactListMembers.orgId, orgId), eq(contactListMembers.listId, listId)))
    .orderBy(
      sql`lower(${rosterItems.lastName})`,
      sql`lower(${rosterItems.firstName})`,
      asc(rosterItems.userId),
    )
    .limit(limit);
}

/**
 * Puts a customer on a list: nothing when they are on it already. The row is written only when
 * the list is the organisation's and the person is on its roster now (one statement, so neither
 * can change in between); answers whether those held.
 */
export async function insertMember(
  db: Db,
  orgId: string,
  listId: string,
  userId: string,
  addedBy: string,
): Promise<{ listFound: boolean; customer: boolean }> {
  const [row] = rowsOf<{ list_found: boolean; customer: boolean }>(
    await db.execute(sql`
      with target as (
        select l.id as list_id, r.user_id
        from contact_lists l
        join roster_items r on r.org_id = l.org_id and r.user_id = ${userId} and not r.deleted
        where l.org_id = ${orgId} and l.id = ${listId}
      ), added as (
        insert into contact_list_members (list_id, org_id, user_id, added_by_user_id)
        select list_id, ${orgId}::uuid, user_id, ${addedBy}::uuid from target
        on conflict (list_id, user_id) do nothing
      )
      select
        exists (select 1 from contact_lists where org_id = ${orgId} and id = ${listId}) as list_found,
        exists (select 1 from target) as customer`),
  );
  return { listFound: Boolean(row?.list_found), customer: Boolean(row?.customer) };
}

export async function deleteMember(
  db: Db,
  orgId: string,
  listId: string,
  userId: string,
): Promise<void> {
  await db
    .delete(contactListMembers)
    .where(
      and(
        eq(contactListMembers.orgId, orgId),
        eq(contactListMembers.listId, listId),
        eq(contactListMembers.userId, userId),
      ),
    );
}

/** The lists one person is on, by name. */
export async function listsOfMember(db: Db, orgId: string, userId: string) {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactListMembers)
    .innerJoin(
      contactLists,
      and(
        eq(contactLists.id, contactListMembers.listId),
        eq(contactLists.orgId, contactListMembers.orgId),
      ),
    )
    .where(and(eq(contactListMembers.orgId, orgId), eq(contactListMembers.userId, userId)))
    .orderBy(sql`lower(${contactLists.name})`, asc(contactLists.id));
}

/**
 * The CSV import's write (issue 17): each (address, list) pair puts the organisation's live
 * customers with that address (lower-case) on that list of the organisation. One statement with
 * the whole batch as one JSON parameter (json_to_recordset), as the other imports write: drizzle
 * would bind an array as one parameter per element. Addresses of nobody on the roster and lists
 * of other organisations match nothing. Counts are of distinct (list, person) pairs matched.
 */
export async function insertMembersByEmail(
  tx: Db | Tx,
  orgId: string,
  actorUserId: string | null,
  rows: ReadonlyArray<{ email: string; contactListId: string }>,
): Promise<{ added: number; unchanged: number }> {
  if (rows.length === 0) return { added: 0, unchanged: 0 };
  const json = JSON.stringify(
    rows.map((row) => ({ email: row.email, contact_list_id: row.contactListId })),
  );
  const [row] = rowsOf<{ matched: number; added: number }>(
    await tx.execute(sql`
      with wanted as (
        select distinct lower(i.email) as email, lower(i.contact_list_id) as list_id
        from json_to_recordset(${json}::json) as i(email text, contact_list_id text)
      ), matched as materialized (
        select distinct l.id as list_id, r.user_id
        from wanted w
        join contact_lists l on l.org_id = ${orgId} and l.id::text = w.list_id
        join roster_items r on r.org_id = ${orgId} and not r.deleted and lower(r.email) = w.email
      ), added as (
        insert into contact_list_members (list_id, org_id, user_id, added_by_user_id)
        select list_id, ${orgId}::uuid, user_id, ${actorUserId}::uuid from matched
        on conflict (list_id, user_id) do nothing
        returning 1
      )
      select (select count(*) from matched)::int as matched,
        (select count(*) from added)::int as added`),
  );
  const matched = Number(row?.matched ?? 0);
  const added = Number(row?.added ?? 0);
  return { added, unchanged: matched - added };
}

/** The organisation's lists by lower-case name (what the import's rules look names up in). */
export async function listIdsByName(
  db: Db | Tx,
  orgId: string,
): Promise<Map<string, { id: string }>> {
  const rows = await db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(eq(contactLists.orgId, orgId));
  return contactListsByKey(rows);
}
