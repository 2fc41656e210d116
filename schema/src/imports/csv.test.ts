import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvMessages, decodeCsvBytes, isCsvFileName, readCsv, writeCsv } from './csv.ts';

const cellsOf = (text: string) => {
  const read = readCsv(text);
  if (!read.ok) throw new Error(read.message);
  return read.records.map((r) => [r.row, ...r.cells]);
};

describe('reading a CSV export', () => {
  it('reads quoted fields with commas, quotes and line breaks inside', () => {
    expect(cellsOf('a,"b, c","say ""hi""","two\nlines"\nd,e')).toEqual([
      [1, 'a', 'b, c', 'say "hi"', 'two\nlines'],
      [2, 'd', 'e'],
    ]);
  });

  it('drops a byte-order mark, reads CRLF, skips empty lines and trailing separators', () => {
    expect(cellsOf('\uFEFFfirstName,lastName\r\nAnn,Lee,\r\n\r\n,,\r\nBo,Kim\r\n')).toEqual([
      [1, 'firstName', 'lastName'],
      [2, 'Ann', 'Lee'],
      [5, 'Bo', 'Kim'],
    ]);
  });

  it('counts the columns of a line with its blank cells at the end (a spreadsheet row)', () => {
    const read = readCsv('a,b,,,\nc,d\n');
    expect(read.ok && read.records.map((r) => [r.cells, r.columns])).toEqual([
      [['a', 'b'], 5],
      [['c', 'd'], 2],
    ]);
  });

  it('finds the semicolons a spreadsheet program writes, and tabs', () => {
    const semi = readCsv('customerEmail;credits\nann@example.com;5\n');
    expect(semi).toMatchObject({ ok: true, delimiter: ';' });
    expect(cellsOf('a\tb\nc\td')).toEqual([
      [1, 'a', 'b'],
      [2, 'c', 'd'],
    ]);
  });

  it('refuses a quote never closed, and text that is not UTF-8', () => {
    expect(readCsv('a,b\n"c,d\ne,f')).toEqual({
      ok: false,
      message: csvMessages.unclosedQuote.replace('{row}', '2'),
    });
    // "Café" in Windows-1252: é is 0xE9, not UTF-8.
    expect(decodeCsvBytes(new Uint8Array([0x43, 0x61, 0x66, 0xe9]))).toEqual({
      ok: false,
      message: csvMessages.notUtf8,
    });
    expect(decodeCsvBytes(new TextEncoder().encode('Café'))).toEqual({ ok: true, text: 'Café' });
    expect(readCsv('Caf\uFFFD,x')).toEqual({ ok: false, message: csvMessages.notUtf8 });
  });

  it('refuses a NUL character, naming its row', () => {
    expect(readCsv('Ann,Lee,a@x.io\r\nBo,K\u0000im,b@x.io')).toEqual({
      ok: false,
      message:
        'Row 2 holds a NUL character, which no spreadsheet writes: save the file again as CSV.',
    });
  });

  it('accepts only .csv files', () => {
    expect(isCsvFileName('members.CSV')).toBe(true);
    expect(isCsvFileName('members.csv.xlsx')).toBe(false);
    expect(isCsvFileName('members.txt')).toBe(false);
  });

  it('reads back any table it is given as CSV (property)', () => {
    const cell = fc.string({ maxLength: 12 }).map((s) => s.replace(/[\uFEFF\uFFFD]/g, ''));
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        (table) => {
          // A leading letter keeps every row non-empty; cells are quoted as spreadsheets do.
          const rows = table.map((cells) => ['x', ...cells]);
          const text = rows
            .map((cells) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(','))
            .join('\r\n');
          const read = readCsv(text);
          expect(read.ok).toBe(true);
          if (!read.ok) return;
          const expected = rows.map((cells) => {
            const trimmed = cells.map((c) => (/^'[=+\-@\t\r]/.test(c) ? c.slice(1) : c).trim());
            while (trimmed.at(-1) === '') trimmed.pop();
            return trimmed;
          });
          expect(read.records.map((r) => r.cells)).toEqual(expected);
        },
      ),
    );
  });

  it('reads back what an export writes, formulas kept as text for spreadsheets (property)', () => {
    // Cells an export writes: any text but one that already begins with the mark itself.
    const cell = fc
      .string({ maxLength: 12 })
      .map((s) => s.replace(/[\uFEFF\uFFFD]/g, ''))
      .filter((s) => !s.startsWith("'"));
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        (table) => {
          const rows = table.map((cells) => ['x', ...cells]);
          const text = writeCsv(rows);
          const read = readCsv(text);
          expect(read.ok).toBe(true);
          if (!read.ok) return;
          const expected = rows.map((cells) => {
            const trimmed = cells.map((c) => c.trim());
            while (trimmed.at(-1) === '') trimmed.pop();
            return trimmed;
          });
          expect(read.records.map((r) => r.cells)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
    // Semicolons in a comma file's cells are quoted, so they are not taken for its separator.
    const semicolons = [
      ['x', ';;;'],
      ['y', 'a;b;c'],
    ];
    expect(writeCsv(semicolons)).toBe('x,";;;"\r\ny,"a;b;c"\r\n');
    const back = readCsv(writeCsv(semicolons));
    expect(back.ok && back.records.map((r) => r.cells)).toEqual(semicolons);
    // A formula that goes on over a line break is escaped too (papaparse's own pattern stops at one).
    expect(writeCsv([['=1+1\nsecond line', '@SUM(1)\r\nx']])).toBe(
      `"'=1+1\nsecond line","'@SUM(1)\r\nx"\r\n`,
    );
    expect(writeCsv([['=HYPERLINK("x")', '+1 555', 'Ann']])).toBe(
      `"'=HYPERLINK(""x"")","'+1 555",Ann\r\n`,
    );
  });
});
