import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './tables.ts';
import { rosterItems } from './replicated-tables.ts';

/**
 * Contact lists (issue 17): named lists of an organisation's customers, which later marketing
 * features send to. Server state, not replicated (staff devices are at RxDB's collection limit).
 * A name is unique in its organisation whatever its letter case.
 */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contact_lists_org_name').on(t.orgId, sql`lower(${t.name})`),
    // The members' composite key names it: a member row cannot belong to another organisation.
    unique('contact_lists_id_org').on(t.id, t.orgId),
    // The schema trims; JavaScript's trim takes more than btrim, so a stored name always passes.
    check(
      'contact_lists_name_length',
      sql`char_length(${t.name}) between 1 and 100 and ${t.name} = btrim(${t.name})`,
    ),
  ],
);

/**
 * Who is on a list. A member is a customer of the list's organisation: the row names the
 * person's roster item by (org_id, user_id). Roster items are removed softly (`deleted`), so
 * reads keep only members whose item is live; one put back on the list of customers is back on
 * their contact lists too.
 */
export const contactListMembers = pgTable(
  'contact_list_members',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    addedByUserId: uuid('added_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.userId] }),
    foreignKey({
      name: 'contact_list_members_list_org_fk',
      columns: [t.listId, t.orgId],
      foreignColumns: [contactLists.id, contactLists.orgId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'contact_list_members_roster_fk',
      columns: [t.orgId, t.userId],
      foreignColumns: [rosterItems.orgId, rosterItems.userId],
    }).onDelete('cascade'),
    // The lists a customer is on (the profile).
    index('contact_list_members_org_user').on(t.orgId, t.userId),
  ],
);

export const contactListTables = { contactLists, contactListMembers };
