import Papa from 'papaparse';

/**
 * Reading a spreadsheet's CSV export (issue 17), the same in the browser (the preview) and on
 * the server (before anything is written): papaparse reads quoted fields with commas and line
 * breaks inside, CRLF or LF, and finds the separator — a comma, or the semicolon a spreadsheet
 * program writes where the comma is the decimal mark, or a tab. A byte-order mark is dropped,
 * empty lines are skipped, and text that is not UTF-8 is refused rather than read as mojibake.
 */

export const csvMessages = {
  notCsv: 'Only .csv files can be imported.',
  notUtf8:
    'This file is not UTF-8 text. Save it from your spreadsheet program as “CSV UTF-8” and load it again.',
  empty: 'No data to preview',
  unclosedQuote: 'A quoted field is never closed: check the quotes on row {row}.',
  nul: 'Row {row} holds a NUL character, which no spreadsheet writes: save the file again as CSV.',
} as const;

export type CsvRecord = {
  /** The record's number as a spreadsheet shows it: the first line of the file is row 1. */
  row: number;
  cells: string[];
  /**
   * How many columns the line has, trailing empty ones included (`a,b,,` has four): a row from
   * a spreadsheet whose last cells are blank still has the file's columns (minimum columns).
   */
  columns?: number;
};

export type CsvReadResult =
  { ok: true; records: CsvRecord[]; delimiter: string } | { ok: false; message: string };

/**
 * Rows as CSV lines, as exports write them (CRLF, quoted where needed): a cell a spreadsheet
 * would run as a formula (= + - @ at its start) is written with a ' before it, which readCsv
 * takes off again — an export imports as it is. A cell holding a semicolon or a tab is quoted
 * too: readCsv counts the separators outside quotes, and `x,a;b;c` would read as a
 * semicolon file (found by the export property in csv.test.ts).
 */
export function writeCsv(rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return '';
  return `${Papa.unparse(rows as string[][], {
    header: false,
    newline: '\r\n',
    escapeFormulae: /^[=+\-@\t\r]/,
    quotes: (value: unknown) => /[;\t]/.test(String(value)),
  })}\r\n`;
}

/** Whether a chosen file may be imported (only `.csv`, whatever its type says). */
export function isCsvFileName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

/** The bytes of a file as text, or the words saying why they are not UTF-8. */
export function decodeCsvBytes(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, message: csvMessages.notUtf8 };
  }
}

/** Reads CSV text into records of trimmed cells, each with its row number in the file. */
export function readCsv(text: string): CsvReadResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.includes('\uFFFD')) return { ok: false, message: csvMessages.notUtf8 };
  const nul = body.indexOf('\u0000');
  if (nul >= 0) {
    const row = body.slice(0, nul).split(/\r\n|\n|\r/).length;
    return { ok: false, message: csvMessages.nul.replace('{row}', String(row)) };
  }
  const guessed = separatorOf(body);
  const parsed = Papa.parse<string[]>(body, { delimiter: guessed, skipEmptyLines: false });
  const quoteError = parsed.errors.find((error) => error.code === 'MissingQuotes');
  if (quoteError)
    return {
      ok: false,
      message: csvMessages.unclosedQuote.replace('{row}', String((quoteError.row ?? 0) + 1)),
    };
  const records: CsvRecord[] = [];
  parsed.data.forEach((cells, index) => {
    // A cell an export wrote as '=… (so a spreadsheet shows it rather than runs it) is read
    // without that mark: exports import as they are.
    const trimmed = cells.map((cell) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell).trim());
    // An empty line, or one of separators only (a spreadsheet's trailing rows): no record.
    if (trimmed.every((cell) => cell === '')) return;
    // Trailing empty cells (a trailing separator) are not columns.
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
    records.push({ row: index + 1, cells: trimmed, columns: cells.length });
  });
  return { ok: true, records, delimiter: parsed.meta.delimiter };
}

const separators = [',', ';', '\t'] as const;

/**
 * The separator: the one of comma, semicolon and tab found most often outside quotes on the
 * file's first ten lines (a tie is a comma). Papaparse's own guess weighs how evenly each
 * splits the rows, and picks the semicolon for a comma file whose quoted cells hold one — so an
 * export would not read back as it was written (csv.test.ts, the export property).
 */
function separatorOf(text: string): string {
  const counts = new Map<string, number>(separators.map((s) => [s, 0]));
  let quoted = false;
  let lines = 0;
  for (let i = 0; i < text.length && lines < 10; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) lines += c === '\n' ? 1 : 0;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best: string = ',';
  for (const s of separators) if (counts.get(s)! > counts.get(best)!) best = s;
  return best;
}
