import { isDeepStrictEqual } from 'node:util';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError } from '../sync/collection-definition.ts';
import { upsertRosterItems } from './roster.repository.ts';

export const rosterMessages = {
  addThroughInvite: 'Customers are added with Add customer, not created offline.',
  athleteFixed: "A customer's name and email are changed on their profile.",
} as const;

/**
 * The one write path for roster items reached by replication: front-desk edits of phone and
 * tags, and removal. People are added through the CRM (issue 7), which owns their account.
 */
export async function writeRosterItems(tx: Tx, _actor: Actor, changes: Array<Change<RosterItemDoc>>): Promise<RuleError[]> {
  const errors: RuleError[] = [];
  for (const { next, master } of changes) {
    if (!master) errors.push({ id: next.id, message: rosterMessages.addThroughInvite });
    else if (!isDeepStrictEqual(next.athlete, master.athlete)) errors.push({ id: next.id, message: rosterMessages.athleteFixed });
  }
  if (errors.length === 0) await upsertRosterItems(tx, changes.map((c) => c.next));
  return errors;
}
