import { describe, expect, it } from 'vitest';
import { importMessages } from '@platform/schema/imports/import-rules';
import {
  pageCount,
  pageNumbers,
  pageOf,
  previewOf,
  showsPageNumbers,
  textAreaRows,
} from './preview.ts';

const context = {
  customerEmails: new Set(['ann@example.com']),
  products: new Map(),
  contactLists: new Map(),
  today: '2026-11-28',
  country: 'US' as const,
};

describe('the import preview', () => {
  it('reads the rows without their header and lists the bad ones with their row numbers', () => {
    const preview = previewOf(
      'customers',
      'firstName,lastName,email\nAnn,Lee,ann@example.com\n,Kim,kim@example.com\nBo,Ray,bo@',
      context,
    );
    expect(preview.ok && preview.rowCount).toBe(3);
    expect(preview.ok && preview.errors.map((e) => [e.row, e.message])).toEqual([
      [3, importMessages.firstNameRequired],
      [4, 'Email bo@ is not a valid email address'],
    ]);
  });

  it('checks tags against the customers this device holds', () => {
    const preview = previewOf('tags', 'ann@example.com,VIP\nzed@example.com,VIP', context);
    expect(preview.ok && preview.errors.map((e) => e.message)).toEqual([
      'Email zed@example.com is not in the valid emails list',
    ]);
  });

  it('says why a file cannot be read', () => {
    expect(previewOf('customers', 'Ann,"Lee,ann@example.com', context)).toEqual({
      ok: false,
      message: 'A quoted field is never closed: check the quotes on row 1.',
    });
  });

  it('grows the text area with its rows, to at most 50', () => {
    expect(textAreaRows('')).toBe(4);
    expect(textAreaRows('a\nb\nc\nd\ne\nf')).toBe(6);
    expect(textAreaRows('x\n'.repeat(500))).toBe(50);
  });

  it('pages by 50 and shows page numbers beyond three pages, skipping the far ones', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(150)).toBe(3);
    expect(pageCount(151)).toBe(4);
    expect(showsPageNumbers(3)).toBe(false);
    expect(showsPageNumbers(4)).toBe(true);
    expect(pageOf([...Array(120).keys()], 2)).toEqual([
      100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118,
      119,
    ]);
    expect(pageNumbers(4, 0)).toEqual([0, 1, 2, 3]);
    expect(pageNumbers(100, 50)).toEqual([0, null, 48, 49, 50, 51, 52, null, 99]);
    expect(pageNumbers(100, 1)).toEqual([0, 1, 2, 3, null, 99]);
  });
});
