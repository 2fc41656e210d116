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
} as const;

export type CsvRecord = {
  /** The record's number as a spreadsheet shows it: the first line of the file is row 1. */
  row: number;
  cells: string[];
};

export type CsvReadResult =
  { ok: true; records: CsvRecord[]; delimiter: string } | { ok: false; message: string };

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
  // The separator is guessed on the first rows without their empty lines (an empty line looks
  // like a one-column row to the guess); the file is then read with them, for row numbers.
  const guessed = Papa.parse<string[]>(body, {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: 'greedy',
    preview: 50,
  }).meta.delimiter;
  const parsed = Papa.parse<string[]>(body, { delimiter: guessed, skipEmptyLines: false });
  const quoteError = parsed.errors.find((error) => error.code === 'MissingQuotes');
  if (quoteError)
    return {
      ok: false,
      message: csvMessages.unclosedQuote.replace('{row}', String((quoteError.row ?? 0) + 1)),
    };
  const records: CsvRecord[] = [];
  parsed.data.forEach((cells, index) => {
    const trimmed = cells.map((cell) => cell.trim());
    // An empty line, or one of separators only (a spreadsheet's trailing rows): no record.
    if (trimmed.every((cell) => cell === '')) return;
    // Trailing empty cells (a trailing separator) are not columns.
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
    records.push({ row: index + 1, cells: trimmed });
  });
  return { ok: true, records, delimiter: parsed.meta.delimiter };
}
