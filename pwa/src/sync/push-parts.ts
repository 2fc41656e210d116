const utf8 = new TextEncoder();

/**
 * Cuts a push batch into parts whose JSON bodies (`JSON.stringify(part)`) are at most
 * `maxBytes` of UTF-8, keeping the rows' order; a single row larger than that is a part of its
 * own (whether it passes is for whoever is on the way to say). Each row is measured once.
 */
export function partsBySize<Row>(rows: readonly Row[], maxBytes: number): Row[][] {
  const parts: Row[][] = [];
  let part: Row[] = [];
  let size = 2; // []
  for (const row of rows) {
    const bytes = utf8.encode(JSON.stringify(row)).length;
    // A comma before every row but the first.
    if (part.length > 0 && size + 1 + bytes > maxBytes) {
      parts.push(part);
      part = [];
      size = 2;
    }
    size += (part.length > 0 ? 1 : 0) + bytes;
    part.push(row);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
