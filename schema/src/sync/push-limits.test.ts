import { describe, expect, it } from 'vitest';
import { NOTE_MAX } from '../crm/customer-note.zod.ts';
import { collectionNames, replicatedCollections } from './collections.ts';
import { isoTimeSchema, ISO_TIME_LENGTH, TIME_RANGE } from './iso-time.ts';
import { mostDocumentBytes, mostPushBodyBytes, PUSH_BATCH_SIZE } from './push-limits.ts';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

// The costliest text for its length: each control character is written `\u0001` (6 bytes).
const worstText = (length: number) => '\u0001'.repeat(length);

const worstNote = {
  id: crypto.randomUUID(),
  orgId: crypto.randomUUID(),
  userId: crypto.randomUUID(),
  body: worstText(NOTE_MAX),
  authorId: crypto.randomUUID(),
  authorName: worstText(300),
  createdAt: TIME_RANGE.from,
  updatedAt: TIME_RANGE.from,
  _deleted: false,
};

describe('the largest push a device can make', () => {
  it('bounds every collection (a field without a maximum would throw here)', () => {
    for (const name of collectionNames) {
      expect(mostDocumentBytes(name), name).toBeGreaterThan(0);
      expect(Number.isFinite(mostPushBodyBytes(name)), name).toBe(true);
    }
  });

  it('holds the worst note there is, and a whole batch of them twice over', () => {
    const note = replicatedCollections['customer-notes'].schema.parse(worstNote);
    expect(bytes({ ...note, _deleted: false })).toBeLessThanOrEqual(
      mostDocumentBytes('customer-notes'),
    );
    const rows = Array.from({ length: PUSH_BATCH_SIZE }, () => ({
      assumedMasterState: worstNote,
      newDocumentState: worstNote,
    }));
    expect(bytes(rows)).toBeLessThanOrEqual(mostPushBodyBytes('customer-notes'));
    // …and not wildly more: the limit is the worst case, not a guess.
    expect(mostPushBodyBytes('customer-notes')).toBeLessThan(bytes(rows) * 1.01);
  });

  it('knows how long a document time is', () => {
    const time = '2199-12-31T23:59:59.999Z';
    expect(time).toHaveLength(ISO_TIME_LENGTH);
    expect(isoTimeSchema.safeParse(time).success).toBe(true);
    expect(isoTimeSchema.safeParse(`${time.slice(0, -1)}0Z`).success).toBe(false);
  });
});
