import { isDeepStrictEqual } from 'node:util';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import type { Tx } from '../db/open-database.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor } from '../sync/actor.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import { upsertRosterItem } from './roster.repository.ts';

export const rosterMessages = {
  addThroughInvite: 'Customers are added with Add customer, not created offline.',
  athleteFixed: "A customer's name and email are changed on their profile.",
} as const;

/**
 * The one write path for roster items reached by replication: front-desk edits of phone and
 * tags, and removal. People are added through the CRM (issue 7), which owns their account.
 */
export async function writeRosterItem(tx: Tx, _actor: Actor, next: WireDoc<RosterItemDoc>, master: WireDoc<RosterItemDoc> | null) {
  if (!master) throw new RuleBroken(rosterMessages.addThroughInvite);
  if (!isDeepStrictEqual(next.athlete, master.athlete)) throw new RuleBroken(rosterMessages.athleteFixed);
  await upsertRosterItem(tx, next);
}
