import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { hasTag, normaliseTags } from '@platform/schema/crm/tags.rules';
import type { RosterRow, RosterSortField } from '@platform/schema/crm/crm.zod';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import type { ReplicaDocument } from '../../db/use-live-query.ts';

/** A replicated roster item as a row of the table (the server's row shape). */
export function rowOfRosterItem(item: ReplicaDocument<RosterItemDoc>): RosterRow {
  return {
    rosterId: item.id,
    userId: item.athlete.id,
    firstName: item.athlete.firstName,
    lastName: item.athlete.lastName,
    email: item.athlete.email,
    phone: item.phone,
    tags: [...item.tags],
  };
}

/** What staff typed, split into lower-case words; every word must start one of the fields. */
const wordsOf = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

/** A number's digits from each group on: '+1 (555) 123' answers to 1555123, 555123 and 123. */
function groupKeys(text: string): string[] {
  const groups = text.match(/\d+/g) ?? [];
  return groups.map((_, index) => groups.slice(index).join(''));
}

/**
 * The keys of a phone: its own groups, and those of its national form — a number is stored in
 * E.164, one group ('+12025550142'), but found by what staff type: '202 555', '555-01', '0142'.
 */
function phoneKeys(phone: string): string[] {
  const national = parsePhoneNumberFromString(phone)?.formatNational() ?? '';
  return [...groupKeys(phone), ...groupKeys(national)];
}

/** The prefixes an item answers to: each name word, the email, the phone. */
function keysOf(item: ReplicaDocument<RosterItemDoc>): string[] {
  const { athlete } = item;
  const names = wordsOf(`${athlete.firstName} ${athlete.lastName} ${athlete.fullName}`);
  const phone = item.phone ?? '';
  return [...names, athlete.email?.toLowerCase() ?? '', phone, ...phoneKeys(phone)].filter(Boolean);
}

export function matchesQuery(item: ReplicaDocument<RosterItemDoc>, query: string): boolean {
  const words = wordsOf(query);
  if (words.length === 0) return true;
  const keys = keysOf(item);
  return words.every((word) => {
    const digits = word.replace(/\D/g, '');
    return keys.some(
      (key) => key.startsWith(word) || (digits.length >= 3 && key.startsWith(digits)),
    );
  });
}

const sortKey = (item: ReplicaDocument<RosterItemDoc>, field: RosterSortField): string => {
  // The device has no creation time; the last change is the nearest it knows.
  if (field === 'createdAt') return item.updatedAt;
  if (field === 'email') return item.athlete.email ?? '';
  return item.athlete[field];
};

/**
 * Offline search over the roster replicated to this device (issue 7 'Offline at the front
 * desk'): case-insensitive prefix match on names, email and phone. The server's typo tolerance
 * is not repeated here — offline, a prefix is what staff get.
 */
export function searchLocalRoster(
  items: ReadonlyArray<ReplicaDocument<RosterItemDoc>>,
  options: { q: string; tag?: string | undefined; sort: RosterSortField; dir: 'asc' | 'desc' },
): RosterRow[] {
  const sign = options.dir === 'desc' ? -1 : 1;
  return items
    .filter(
      (item) => (!options.tag || hasTag(item.tags, options.tag)) && matchesQuery(item, options.q),
    )
    .sort(
      (a, b) =>
        sign *
        (sortKey(a, options.sort).localeCompare(sortKey(b, options.sort), undefined, {
          sensitivity: 'base',
        }) ||
          a.athlete.firstName.localeCompare(b.athlete.firstName) ||
          a.id.localeCompare(b.id)),
    )
    .map(rowOfRosterItem);
}

/** Every tag on the device's roster, for the filter while offline. */
export function tagsOfRoster(items: readonly RosterItemDoc[]): string[] {
  return normaliseTags(items.flatMap((item) => item.tags)).sort((a, b) => a.localeCompare(b));
}
