/**
 * Customer tags are case-insensitive (issue 14: never 'vip' and 'VIP' on one customer). A tag
 * keeps the spelling it was first given: within one list the first spelling wins, and a tag
 * typed anew takes the spelling the organisation already uses ('VIP' typed where 'vip' exists
 * is 'vip'). Spaces are trimmed and runs of them made one. Both sides apply these: the tag
 * input and the conflict merge on the device, the CRM endpoint and the replication push on the
 * server.
 */

export const TAG_MAX = 60;
export const TAGS_PER_CUSTOMER_MAX = 50;

/** How two tags compare: 'VIP', 'vip' and ' Vip ' are one tag. */
export function tagKey(tag: string): string {
  return cleanTag(tag).toLocaleLowerCase('en-US');
}

/** Trimmed, inner runs of spaces made one. */
export function cleanTag(tag: string): string {
  return tag.trim().replace(/\s+/g, ' ');
}

/** The list without empty tags and without case-insensitive repeats, first spelling kept. */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags) {
    const clean = cleanTag(tag);
    const key = tagKey(clean);
    if (clean === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(clean);
  }
  return out;
}

/** A typed tag in the spelling the organisation already uses for it, if any. */
export function spellingOf(typed: string, known: readonly string[]): string {
  const key = tagKey(typed);
  return known.find((tag) => tagKey(tag) === key) ?? cleanTag(typed);
}

/** Whether `tags` holds `tag` in any spelling. */
export function hasTag(tags: readonly string[], tag: string): boolean {
  const key = tagKey(tag);
  return tags.some((other) => tagKey(other) === key);
}
