import { fullName } from '@platform/schema/app/full-name.rules';
import { and, eq, inArray } from 'drizzle-orm';
import { customerNotes, rosterItems, users } from '@platform/schema/db';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { MAX_CLOCK_AHEAD_MS } from '@platform/schema/sync/change-stamp.rules';
import type { CustomerNoteDoc } from '@platform/schema/crm/customer-note.zod';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError, WireDoc } from '../sync/collection-definition.ts';

export type CustomerNoteRow = typeof customerNotes.$inferSelect;

export const noteSyncMessages = {
  immutable: 'A saved note cannot be changed or removed.',
  ownName: 'A note is written in its author’s own name.',
  future: 'A note cannot be dated in the future.',
} as const;

export function customerNoteToDoc(row: CustomerNoteRow): WireDoc<CustomerNoteDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    userId: row.userId,
    body: row.body,
    authorId: row.authorId,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

/**
 * Notes pushed from staff devices (decision 0013): new notes only, in the pusher's own name,
 * about a customer on the organisation's roster. The author's name is the server's (the
 * device's copy comes back with it on the next pull); the time is the device's, when it was
 * written. A note is never changed, so two devices cannot conflict over one.
 */
export async function writeCustomerNotes(
  tx: Tx,
  actor: Actor,
  changes: Array<Change<CustomerNoteDoc>>,
): Promise<RuleError[]> {
  const errors: RuleError[] = [];
  const fresh = changes.filter(({ next, master }) => {
    if (master || next._deleted) errors.push({ id: next.id, message: noteSyncMessages.immutable });
    else if (next.authorId !== actor.userId)
      errors.push({ id: next.id, message: noteSyncMessages.ownName });
    else if (Date.parse(next.createdAt) > Date.now() + MAX_CLOCK_AHEAD_MS)
      errors.push({ id: next.id, message: noteSyncMessages.future });
    else return true;
    return false;
  });
  const customerIds = [...new Set(fresh.map(({ next }) => next.userId))];
  const onRoster = new Set(
    customerIds.length === 0 || !actor.orgId
      ? []
      : (
          await tx
            .select({ userId: rosterItems.userId })
            .from(rosterItems)
            .where(
              and(
                eq(rosterItems.orgId, actor.orgId),
                inArray(rosterItems.userId, customerIds),
                eq(rosterItems.deleted, false),
              ),
            )
        ).map((row) => row.userId),
  );
  for (const { next } of fresh)
    if (!onRoster.has(next.userId)) errors.push({ id: next.id, message: crmMessages.notFound });
  if (errors.length > 0 || fresh.length === 0) return errors;

  const [author] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, actor.userId));
  const authorName = author ? fullName(author) : '';
  await tx.insert(customerNotes).values(
    fresh.map(({ next }) => ({
      id: next.id,
      orgId: next.orgId,
      userId: next.userId,
      authorId: actor.userId,
      authorName,
      body: next.body.trim(),
      createdAt: new Date(next.createdAt),
      updatedAt: new Date(next.updatedAt),
    })),
  );
  return [];
}
