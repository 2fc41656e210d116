import type {
  ContactList,
  ContactListMembersResponse,
  CustomerContactListsResponse,
} from '@platform/schema/crm/contact-lists.zod';
import { contactListKey } from '@platform/schema/crm/contact-lists.zod';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { Db, Tx } from '../db/open-database.ts';
import { errorCodesOf, isUniqueViolation } from '../db/postgres-errors.ts';
import { NotFound } from '../plugins/domain-errors.ts';
import type { CrmStaff } from './crm.access.ts';
import { ContactListNameTaken, ContactListNotFound, NotACustomer } from './crm.errors.ts';
import { findRosterItemOfUser } from './customers.repository.ts';
import {
  deleteList,
  deleteMember,
  findList,
  insertList,
  insertMember,
  insertMembersByEmail,
  listIdsByName,
  lockedListNames,
  listsOfMember,
  listsOfOrg,
  membersOf,
  renameList,
} from './contact-lists.repository.ts';

/*
 * Contact lists (issue 17): staff of the organisation holding view-customers (requireCrmStaff
 * decides, in the routes) create, rename and delete lists and put customers on them. Names
 * arrive trimmed and within 1–100 characters (contactListNameSchema). Not audited, not
 * replicated: no change is announced.
 */

/** Lists hold at most this many members in one answer (by name); the count says the rest. */
export const MEMBERS_SHOWN_MAX = 1000;

export async function contactListsOf(db: Db, staff: CrmStaff): Promise<ContactList[]> {
  return listsOfOrg(db, staff.orgId);
}

/**
 * Writes a list's name if no other list of the organisation has it in any letter case: the
 * database's unique index compares lower() (which tells a Greek final sigma from a sigma), this
 * compares contactListKey, as the import's rules do — under the organisation's lock.
 */
async function withNameFree<T>(
  db: Db,
  orgId: string,
  name: string,
  exceptId: string | null,
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const key = contactListKey(name);
    const names = await lockedListNames(tx, orgId);
    if (names.some((list) => list.id !== exceptId && contactListKey(list.name) === key))
      throw new ContactListNameTaken(name);
    return write(tx);
  });
}

export async function createContactList(
  db: Db,
  staff: CrmStaff,
  name: string,
): Promise<ContactList> {
  try {
    return await withNameFree(db, staff.orgId, name, null, (tx) =>
      insertList(tx, staff.orgId, name),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new ContactListNameTaken(name);
    throw error;
  }
}

export async function renameContactList(
  db: Db,
  staff: CrmStaff,
  id: string,
  name: string,
): Promise<ContactList> {
  let renamed: { id: string } | undefined;
  try {
    renamed = await withNameFree(db, staff.orgId, name, id, (tx) =>
      renameList(tx, staff.orgId, id, name),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new ContactListNameTaken(name);
    throw error;
  }
  if (!renamed) throw new ContactListNotFound();
  return listOrNotFound(db, staff, id);
}

export async function deleteContactList(db: Db, staff: CrmStaff, id: string): Promise<void> {
  if (!(await deleteList(db, staff.orgId, id))) throw new ContactListNotFound();
}

export async function contactListMembers(
  db: Db,
  staff: CrmStaff,
  id: string,
): Promise<ContactListMembersResponse> {
  const list = await listOrNotFound(db, staff, id);
  return { list, members: await membersOf(db, staff.orgId, id, MEMBERS_SHOWN_MAX) };
}

/** Puts a customer on a list; one already on it stays as they are (idempotent). */
export async function addContactListMember(
  db: Db,
  staff: CrmStaff,
  id: string,
  userId: string,
): Promise<void> {
  let outcome: { listFound: boolean; customer: boolean };
  try {
    // Added by whoever is at the keyboard: an impersonating admin is on record as themself.
    outcome = await insertMember(
      db,
      staff.orgId,
      id,
      userId,
      staff.impersonatorUserId ?? staff.userId,
    );
  } catch (error) {
    // The list was deleted while the row was written (its foreign key refused it).
    if (errorCodesOf(error).includes('23503')) throw new ContactListNotFound();
    throw error;
  }
  if (!outcome.listFound) throw new ContactListNotFound();
  if (!outcome.customer) throw new NotACustomer();
}

/** Takes a person off a list; someone not on it is the same answer (idempotent). */
export async function removeContactListMember(
  db: Db,
  staff: CrmStaff,
  id: string,
  userId: string,
): Promise<void> {
  await listOrNotFound(db, staff, id);
  await deleteMember(db, staff.orgId, id, userId);
}

/** The lists a customer of the organisation is on (the profile); 404 for anyone else. */
export async function contactListsOfCustomer(
  db: Db,
  staff: CrmStaff,
  userId: string,
): Promise<CustomerContactListsResponse> {
  const item = await findRosterItemOfUser(db, staff.orgId, userId);
  if (!item) throw new NotFound(crmMessages.notFound);
  return { lists: await listsOfMember(db, staff.orgId, userId) };
}

/**
 * For the CSV import (issue 17, kind contact-lists): puts the organisation's customers named by
 * address (any letter case) on the lists named by id, in the caller's transaction, in one
 * statement however many rows. Re-adding changes nothing; an address of nobody on the list of
 * customers, or a list of another organisation, matches nothing. `added` and `unchanged` count
 * distinct (list, customer) pairs.
 */
export async function addMembersByEmail(
  tx: Tx,
  orgId: string,
  actorUserId: string | null,
  rows: ReadonlyArray<{ email: string; contactListId: string }>,
): Promise<{ added: number; unchanged: number }> {
  return insertMembersByEmail(tx, orgId, actorUserId, rows);
}

/** The organisation's lists by lower-case name: the import rules' `contactLists`. */
export async function contactListsByName(
  db: Db | Tx,
  orgId: string,
): Promise<Map<string, { id: string }>> {
  return listIdsByName(db, orgId);
}

async function listOrNotFound(db: Db, staff: CrmStaff, id: string): Promise<ContactList> {
  const list = await findList(db, staff.orgId, id);
  if (!list) throw new ContactListNotFound();
  return list;
}
