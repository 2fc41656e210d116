import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';
import { INVITATION_DAYS } from './invitations.repository.ts';

/**
 * The customer list written many rows at a time (issue 17, decision 0071): each statement takes
 * a whole batch as one JSON parameter (`json_to_recordset`), the same on PostgreSQL and PGlite
 * and never near the protocol's 65,535 parameters. Only the CSV import calls these; what they
 * do to one person is what add-customer.service.ts does to one.
 */

export type ImportedCustomer = {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
};

/** New addresses become password-less accounts this organisation made; answers them. */
export async function insertImportedAccounts(
  tx: Tx,
  orgId: string,
  rows: readonly ImportedCustomer[],
): Promise<Array<{ id: string; email: string }>> {
  return rowsOf<{ id: string; email: string }>(
    await tx.execute(sql`
      insert into users (email, first_name, last_name, password_hash, created_by_org_id)
      select i.email, i.first_name, i.last_name, null, ${orgId}::uuid
      from json_to_recordset(${JSON.stringify(rows.map(asRecord))}::json)
        as i(email text, first_name text, last_name text, phone text)
      -- lower(): an address stored with capitals (no writer stores one) is the same account.
      where not exists (select 1 from users u where lower(u.email) = i.email)
      on conflict (email) do nothing
      returning id, email`),
  );
}

/** The accounts just made: this organisation's customers from the start, on its list. */
export async function enrolImportedAccounts(
  tx: Tx,
  orgId: string,
  rows: ReadonlyArray<ImportedCustomer & { userId: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((row) => ({ ...asRecord(row), user_id: row.userId })));
  await tx.execute(sql`
    insert into memberships (user_id, org_id, kind)
    select i.user_id, ${orgId}::uuid, 'customer'
    from json_to_recordset(${json}::json) as i(user_id uuid)
    on conflict do nothing`);
  await tx.execute(sql`
    insert into roster_items
      (org_id, user_id, first_name, last_name, email, phone, invitation_pending, updated_at)
    select ${orgId}::uuid, i.user_id, i.first_name, i.last_name, i.email, nullif(i.phone, ''),
      true, now()
    from json_to_recordset(${json}::json)
      as i(user_id uuid, email text, first_name text, last_name text, phone text)
    on conflict (org_id, user_id) do nothing`);
}

/**
 * Addresses that had an account: a roster item named as the file says (never the account's own
 * names) and no membership — an invitation its owner accepts, as Add customer does. Someone on
 * the list already is left as they are; someone removed from it is put back as invited.
 * Answers the people put on the list.
 */
export async function inviteImportedAccounts(
  tx: Tx,
  orgId: string,
  rows: readonly ImportedCustomer[],
  createdIds: readonly string[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  return rowsOf<{ user_id: string }>(
    await tx.execute(sql`
      insert into roster_items
        (org_id, user_id, first_name, last_name, email, phone, invitation_pending, updated_at)
      select ${orgId}::uuid, u.id, i.first_name, i.last_name, i.email, nullif(i.phone, ''),
        true, now()
      from json_to_recordset(${JSON.stringify(rows.map(asRecord))}::json)
        as i(email text, first_name text, last_name text, phone text)
      join users u on lower(u.email) = i.email
      where not (u.id = any(${`{${createdIds.join(',')}}`}::uuid[]))
      on conflict (org_id, user_id) do update set
        first_name = excluded.first_name, last_name = excluded.last_name,
        email = excluded.email, phone = excluded.phone, deleted = false,
        invitation_pending = true, updated_at = now()
      where roster_items.deleted
      returning user_id`),
  ).map((row) => row.user_id);
}

/**
 * An invitation for each person put on the list, as Add customer leaves one: no email goes
 * (an import sends none); staff send it from the profile ("Resend invitation"), which makes a
 * new token. The kept hash is of a random value nobody was given.
 */
export async function insertImportInvitations(
  tx: Tx,
  orgId: string,
  userIds: readonly string[],
  invitedBy: string | null,
): Promise<void> {
  if (userIds.length === 0) return;
  await tx.execute(sql`
    insert into crm_invitations (org_id, user_id, invited_by, token_hash, expires_at)
    select ${orgId}::uuid, person, ${invitedBy}::uuid,
      encode(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())), 'hex'),
      now() + make_interval(days => ${INVITATION_DAYS})
    from unnest(${`{${userIds.join(',')}}`}::uuid[]) as person`);
}

/** The organisation's customers' addresses, lower-case: the rules' "valid emails list". */
export async function customerEmailsOf(tx: Db | Tx, orgId: string): Promise<Set<string>> {
  const rows = rowsOf<{ email: string }>(
    await tx.execute(
      sql`select lower(email) as email from roster_items
          where org_id = ${orgId} and deleted = false and email is not null`,
    ),
  );
  return new Set(rows.map((row) => row.email));
}

/** The live roster items of these addresses, with their tags (for the tags import). */
export async function rosterTagsByEmail(
  tx: Tx,
  orgId: string,
  emails: readonly string[],
): Promise<Array<{ userId: string; email: string; tags: string[] }>> {
  return rowsOf<{ user_id: string; email: string; tags: string[] }>(
    await tx.execute(sql`
      select r.user_id, lower(r.email) as email, r.tags
      from roster_items r
      join json_array_elements_text(${JSON.stringify(emails)}::json) as e(email)
        on lower(r.email) = e.email
      where r.org_id = ${orgId} and not r.deleted
      for update of r`),
  ).map((row) => ({ userId: row.user_id, email: row.email, tags: row.tags }));
}

/** New tag lists, by person. */
export async function setImportedTags(
  tx: Tx,
  orgId: string,
  changes: ReadonlyArray<{ userId: string; tags: string[] }>,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update roster_items r set tags = array(select json_array_elements_text(i.tags)),
      updated_at = now()
    from json_to_recordset(${JSON.stringify(changes.map((c) => ({ user_id: c.userId, tags: c.tags })))}::json)
      as i(user_id uuid, tags json)
    where r.org_id = ${orgId} and r.user_id = i.user_id and not r.deleted`);
}

const asRecord = (row: ImportedCustomer) => ({
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
  phone: row.phone,
});

/**
 * Addresses of this batch that more than one live customer of the organisation carries (two
 * accounts whose addresses differ only in letter case): a row naming one cannot say whom.
 */
export async function ambiguousCustomerEmails(
  tx: Tx,
  orgId: string,
  emails: readonly string[],
): Promise<Set<string>> {
  const rows = rowsOf<{ email: string }>(
    await tx.execute(sql`
      select lower(r.email) as email
      from roster_items r
      join json_array_elements_text(${JSON.stringify(emails)}::json) as e(email)
        on lower(r.email) = e.email
      where r.org_id = ${orgId} and not r.deleted
      group by lower(r.email)
      having count(distinct r.user_id) > 1`),
  );
  return new Set(rows.map((row) => row.email));
}
