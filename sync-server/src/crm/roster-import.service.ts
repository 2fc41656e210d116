import { normaliseTags, spellingOf } from '@platform/schema/crm/tags.rules';
import { TAGS_PER_CUSTOMER_MAX } from '@platform/schema/crm/customer-tag.zod';
import type { CustomerRow, RowError, TagRow } from '@platform/schema/imports/import-rules';
import type { Db, Tx } from '../db/open-database.ts';
import { RowsRefused } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { tagsOfOrg } from './customers.repository.ts';
import {
  customerEmailsOf,
  enrolImportedAccounts,
  insertImportedAccounts,
  insertImportInvitations,
  inviteImportedAccounts,
  ambiguousCustomerEmails,
  rosterTagsByEmail,
  setImportedTags,
} from './roster-import.repository.ts';

/**
 * The CSV import's writes to the customer list (issue 17, decision 0071), a batch at a time, in
 * the import's one transaction: the same outcome for each person as Add customer — a new address
 * is an account this organisation made and its customer, an address with an account is invited
 * (its names are never changed) — and someone on the list already is left alone, so importing a
 * file twice changes nothing the second time.
 */
export async function importCustomerBatch(
  tx: Tx,
  context: { orgId: string; staffUserId: string | null },
  rows: ReadonlyArray<CustomerRow>,
): Promise<{ created: number; invited: number; unchanged: number }> {
  const people = rows.map((row) => ({
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phoneNumber,
  }));
  const created = await insertImportedAccounts(tx, context.orgId, people);
  const idOf = new Map(created.map((account) => [account.email, account.id]));
  await enrolImportedAccounts(
    tx,
    context.orgId,
    people.flatMap((person) => {
      const userId = idOf.get(person.email);
      return userId ? [{ ...person, userId }] : [];
    }),
  );
  const invited = await inviteImportedAccounts(
    tx,
    context.orgId,
    people.filter((person) => !idOf.has(person.email)),
    [...idOf.values()],
  );
  const listed = [...idOf.values(), ...invited];
  await insertImportInvitations(tx, context.orgId, listed, context.staffUserId);
  if (listed.length > 0)
    await notifyChange(tx, { collection: 'roster', orgId: context.orgId, ownerIds: listed });
  return {
    created: created.length,
    invited: invited.length,
    unchanged: rows.length - listed.length,
  };
}

/** What the import's rules need of the customer list: its addresses. */
export const importableCustomerEmails = (tx: Db | Tx, orgId: string) => customerEmailsOf(tx, orgId);

/** A customer would carry more tags than the list allows: the import is refused with its rows. */
export class TooManyTags extends RowsRefused {
  constructor(rowErrors: RowError[]) {
    super(rowErrors);
  }
}

/**
 * Tags added to customers (never removed): in the organisation's spelling of each tag, without
 * case-insensitive repeats (tags.rules.ts), so a tag a customer has already changes nothing.
 */
export async function importTagBatch(
  tx: Tx,
  orgId: string,
  rows: ReadonlyArray<TagRow & { row: number; cells: string[] }>,
): Promise<{ tagged: number; unchanged: number }> {
  // Each tag in the spelling the organisation uses, or the file's first spelling of it.
  const known = await tagsOfOrg(tx, orgId);
  const byEmail = new Map<string, Array<(typeof rows)[number]>>();
  for (const row of rows) {
    const tagName = spellingOf(row.tagName, known);
    if (!known.includes(tagName)) known.push(tagName);
    byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), { ...row, tagName }]);
  }
  const items = await rosterTagsByEmail(tx, orgId, [...byEmail.keys()]);
  const changes: Array<{ userId: string; tags: string[] }> = [];
  const tooMany: RowError[] = [];
  for (const item of items) {
    const asked = byEmail.get(item.email) ?? [];
    const tags = normaliseTags([...item.tags, ...asked.map((row) => row.tagName)]);
    if (tags.length > TAGS_PER_CUSTOMER_MAX)
      for (const row of asked)
        tooMany.push({
          row: row.row,
          message: `Customer ${item.email} would have more than ${TAGS_PER_CUSTOMER_MAX} tags`,
          cells: row.cells,
        });
    else if (tags.join('\n') !== item.tags.join('\n')) changes.push({ userId: item.userId, tags });
  }
  if (tooMany.length > 0) throw new TooManyTags(tooMany);
  await setImportedTags(tx, orgId, changes);
  if (changes.length > 0)
    await notifyChange(tx, {
      collection: 'roster',
      orgId,
      ownerIds: changes.map((change) => change.userId),
    });
  const tagged = changes.length;
  return { tagged, unchanged: byEmail.size - tagged };
}

/**
 * Rows naming a customer by an address two customers of the organisation carry (accounts whose
 * addresses differ only in letter case) cannot say whom: the import is refused with them.
 */
export async function refuseAmbiguousEmails(
  tx: Tx,
  orgId: string,
  rows: ReadonlyArray<{ email: string; row: number; cells: string[] }>,
): Promise<void> {
  const ambiguous = await ambiguousCustomerEmails(
    tx,
    orgId,
    rows.map((row) => row.email),
  );
  if (ambiguous.size === 0) return;
  throw new RowsRefused(
    rows
      .filter((row) => ambiguous.has(row.email))
      .map((row) => ({
        row: row.row,
        message: `Email ${row.email} belongs to more than one customer on your list`,
        cells: row.cells,
      })),
  );
}
