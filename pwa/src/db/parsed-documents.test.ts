import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { createRxDatabase } from 'rxdb/plugins/core';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { parsedDocuments } from './parsed-documents.ts';
import { plainDocument } from './use-live-query.ts';

/** A schema that counts the documents it parses. */
function countingSchema() {
  const counter = { parses: 0 };
  const schema = z.object({ id: z.string(), n: z.number().int() }).transform((doc) => {
    counter.parses++;
    return { ...doc, twice: doc.n * 2 };
  });
  return { schema, counter };
}

describe('parsedDocuments', () => {
  it('parses each document object once per schema, keeps order, and leaves out what it refuses', () => {
    const { schema, counter } = countingSchema();
    const a = { id: 'a', n: 1 };
    const odd = { id: 'odd', n: 1.5 };
    const b = { id: 'b', n: 2 };
    expect(parsedDocuments(schema, [a, odd, b])).toEqual([
      { id: 'a', n: 1, twice: 2 },
      { id: 'b', n: 2, twice: 4 },
    ]);
    expect(counter.parses).toBe(2);
    // Read again, with one new revision of a (a new object with the same id): only it is parsed.
    const a2 = { id: 'a', n: 3 };
    const again = parsedDocuments(schema, [b, a2, odd]);
    expect(again).toEqual([
      { id: 'b', n: 2, twice: 4 },
      { id: 'a', n: 3, twice: 6 },
    ]);
    expect(counter.parses).toBe(3);
    // The same parse is handed back, not a copy.
    expect(again[0]).toBe(parsedDocuments(schema, [b])[0]);
    // Another schema has verdicts of its own.
    const other = countingSchema();
    expect(parsedDocuments(other.schema, [a, b])).toHaveLength(2);
    expect(other.counter.parses).toBe(2);
  });
});

describe('plainDocument', () => {
  it('hands back one object per revision of a replicated document, and a new one for a new revision', async () => {
    const db = await createRxDatabase({
      name: `plain-${Math.random().toString(36).slice(2)}`,
      storage: getRxStorageMemory(),
    });
    try {
      const { things } = await db.addCollections({
        things: {
          schema: {
            version: 0,
            primaryKey: 'id',
            type: 'object',
            properties: {
              id: { type: 'string', maxLength: 20 },
              n: { type: 'number' },
              updatedAt: { type: 'string' },
            },
            required: ['id', 'n'],
          },
        },
      });
      await things!.bulkInsert([
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ]);
      // The RxDocuments are held to the end: the cache is keyed by them, weakly, and one
      // collected between two reads would be made again (a new object, rightly).
      const held: Array<Array<{ toMutableJSON(): unknown }>> = [];
      const plainOf = async (selector: Record<string, unknown>) => {
        const documents = await things!.find({ selector, sort: [{ id: 'asc' }] }).exec();
        held.push(documents);
        return documents.map(plainDocument);
      };
      const [a, b] = await plainOf({});
      expect(a).toEqual({ id: 'a', n: 1 });
      // Another query over the same documents, and the same query again: the same objects.
      expect((await plainOf({ n: { $gte: 1 } }))[0]).toBe(a);
      const live = things!.find({ sort: [{ id: 'asc' }] });
      const first = (await firstValueFrom(live.$)).map(plainDocument);
      expect(first[0]).toBe(a);
      expect(first[1]).toBe(b);
      // A change makes a new revision: a new object for it, the other kept.
      await things!.upsert({ id: 'a', n: 5 });
      const next = (
        await firstValueFrom(live.$.pipe(filter((docs) => docs[0]?.get('n') === 5)))
      ).map(plainDocument);
      expect(next[0]).not.toBe(a);
      expect(next[0]).toEqual({ id: 'a', n: 5 });
      expect(next[1]).toBe(b);
      // The first read's RxDocuments still give their own objects: the old revision of a its
      // copy, not the new one.
      const [a1, b1] = held[0]!;
      expect(plainDocument(a1!)).toBe(a);
      expect(plainDocument(b1!)).toBe(b);
    } finally {
      await db.remove();
    }
  });
});
