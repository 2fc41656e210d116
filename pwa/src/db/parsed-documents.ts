import type { z } from 'zod';

// Each schema's verdict on each document object, kept while the object lives. Documents from
// the replica are the same object for the same revision (use-live-query.ts, plainDocument), so a
// screen that parses what it reads parses a revision once, not on every answer.
const verdicts = new WeakMap<z.ZodType, WeakMap<object, { data: unknown } | null>>();

/**
 * The documents `schema` accepts, parsed, in order; the rest left out (one odd document never
 * stops a screen). A document object parsed before by the same schema is not parsed again.
 */
export function parsedDocuments<S extends z.ZodType>(
  schema: S,
  documents: readonly object[],
): Array<z.output<S>> {
  let known = verdicts.get(schema);
  if (!known) {
    known = new WeakMap();
    verdicts.set(schema, known);
  }
  const parsed: Array<z.output<S>> = [];
  for (const document of documents) {
    let verdict = known.get(document);
    if (verdict === undefined) {
      const result = schema.safeParse(document);
      verdict = result.success ? { data: result.data } : null;
      known.set(document, verdict);
    }
    if (verdict) parsed.push(verdict.data as z.output<S>);
  }
  return parsed;
}
