import { fullName } from '@platform/schema/app/full-name.rules';
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
      fullName: fullName(row),
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

/** Stores every document in one statement (inserting new ones, updating known ones). */
export async function upsertRosterItems(
  tx: Tx,
  docs: Array<WireDoc<RosterItemDoc>>,
): Promise<void> {
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
    // An update takes only what a device may change. The person and their names and email are
    // the account's (settings, invitations) and never come from a push — not even unchanged, as
    // the copy a device sends may be older than a rename committed meanwhile (issue 12).
    .onConflictDoUpdate({
      target: rosterItems.id,
      set: excludedSet(rosterItems, ['phone', 'tags', 'updatedAt', 'deleted']),
    });
}
