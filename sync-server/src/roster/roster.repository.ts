import { rosterItems } from '@platform/schema/db';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import type { Tx } from '../db/open-database.ts';
import { excludedSet } from '../db/upsert.ts';
import type { WireDoc } from '../sync/collection-definition.ts';

export type RosterRow = typeof rosterItems.$inferSelect;

export function rosterItemToDoc(row: RosterRow): WireDoc<RosterItemDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    athlete: {
      id: row.userId,
      fullName: `${row.firstName} ${row.lastName}`.trim(),
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
    },
    phone: row.phone,
    tags: row.tags,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

/** Stores every document in one statement (inserting new ones, replacing known ones). */
export async function upsertRosterItems(tx: Tx, docs: Array<WireDoc<RosterItemDoc>>): Promise<void> {
  if (docs.length === 0) return;
  await tx
    .insert(rosterItems)
    .values(
      docs.map((doc) => ({
        id: doc.id,
        orgId: doc.orgId,
        userId: doc.athlete.id,
        firstName: doc.athlete.firstName,
        lastName: doc.athlete.lastName,
        email: doc.athlete.email,
        phone: doc.phone,
        tags: doc.tags,
        updatedAt: new Date(doc.updatedAt),
        deleted: doc._deleted,
      })),
    )
    // A document never changes organisation: org_id is not among the columns an update sets.
    .onConflictDoUpdate({
      target: rosterItems.id,
      set: excludedSet(rosterItems, ['userId', 'firstName', 'lastName', 'email', 'phone', 'tags', 'updatedAt', 'deleted']),
    });
}
