import { readCsv, type CsvRecord } from '@platform/schema/imports/csv';
import {
  checkImport,
  isHeader,
  PAGE_NUMBERS_AFTER,
  PREVIEW_PAGE_SIZE,
  TEXT_AREA_MAX_ROWS,
  type ImportContext,
  type ImportKind,
  type RowError,
} from '@platform/schema/imports/import-rules';

/** What the preview shows: the rows as read, and the bad ones by the rules the server runs. */
export type Preview =
  | { ok: true; records: CsvRecord[]; errors: RowError[]; rowCount: number }
  | { ok: false; message: string };

/** Reads and checks the text in the browser, with the rules the server runs before writing. */
export function previewOf(kind: ImportKind, text: string, context: ImportContext): Preview {
  const read = readCsv(text);
  if (!read.ok) return read;
  const records = isHeader(kind, read.records[0]) ? read.records.slice(1) : read.records;
  const { errors } = checkImport(kind, read.records, context);
  return { ok: true, records, errors, rowCount: records.length };
}

/** spec §9: the text area grows with its rows, to at most 50. */
export function textAreaRows(text: string): number {
  const lines = text === '' ? 1 : text.split(/\r\n|\n|\r/).length;
  return Math.max(4, Math.min(lines, TEXT_AREA_MAX_ROWS));
}

export function pageCount(rows: number): number {
  return Math.max(1, Math.ceil(rows / PREVIEW_PAGE_SIZE));
}

export function pageOf<T>(rows: readonly T[], page: number): T[] {
  return rows.slice(page * PREVIEW_PAGE_SIZE, (page + 1) * PREVIEW_PAGE_SIZE);
}

/** spec §9: page numbers appear when there are more than three pages. */
export function showsPageNumbers(pages: number): boolean {
  return pages > PAGE_NUMBERS_AFTER;
}

/**
 * The page numbers to offer (0-based): the first, the last, and two either side of the current
 * one; `null` where numbers are skipped ("…"), so a 2,000-page file stays one line.
 */
export function pageNumbers(pages: number, current: number): Array<number | null> {
  const wanted = new Set([0, pages - 1]);
  for (let p = current - 2; p <= current + 2; p++) if (p >= 0 && p < pages) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  sorted.forEach((page, i) => {
    if (i > 0 && page - sorted[i - 1]! > 1) out.push(null);
    out.push(page);
  });
  return out;
}
