import { lastWriterWins, type Replicated } from '../sync/conflict.rules.ts';
import { hasTag, normaliseTags } from '../crm/tags.rules.ts';
import type { RosterItemDoc } from './roster-item.zod.ts';

type Item = Replicated<RosterItemDoc>;

/**
 * Front-desk edits made offline on two devices: each field the local device changed (against
 * the state it last saw) is kept unless the master changed it later; tags merge as sets of
 * additions and removals. The athlete's identity is the CRM's and is taken from the master.
 */
export function mergeRosterItems(master: Item, local: Item, assumed: Item | undefined): Item {
  if (master._deleted || local._deleted || !assumed) return lastWriterWins(master, local);
  const localIsLater = Date.parse(local.updatedAt) > Date.parse(master.updatedAt);
  const phoneChangedLocally = local.phone !== assumed.phone;
  const phoneChangedOnServer = master.phone !== assumed.phone;
  const phone = phoneChangedLocally && (!phoneChangedOnServer || localIsLater) ? local.phone : master.phone;
  // Tags compare case-insensitively (tags.rules.ts): 'VIP' added on one device and 'vip' on
  // another are one tag, in the master's spelling.
  const added = local.tags.filter((tag) => !hasTag(assumed.tags, tag));
  const removed = assumed.tags.filter((tag) => !hasTag(local.tags, tag));
  const kept = master.tags.filter((tag) => !hasTag(removed, tag));
  const tags = normaliseTags([...kept, ...added]);
  return { ...master, phone, tags, updatedAt: localIsLater ? local.updatedAt : master.updatedAt };
}
