import { describe, expect, it } from 'vitest';
import { readCsv } from './csv.ts';
import fc from 'fast-check';
import {
  agreedPriceMinor,
  checkImport,
  importProductsOf,
  importMessages,
  type ImportContext,
  type ImportKind,
} from './import-rules.ts';

const context: ImportContext = {
  customerEmails: new Set(['ann@example.com', 'bo@example.com']),
  products: new Map([
    ['gold membership', { id: 'p-gold', recurring: true, punchCardGroups: 0, priceMinor: 4999 }],
    ['10-class pack', { id: 'p-pack', recurring: false, punchCardGroups: 1, priceMinor: 12000 }],
  ]),
  contactLists: new Map([['newsletter', { id: 'l-news' }]]),
  today: '2027-03-01',
  country: 'US',
};

const records = (text: string) => {
  const read = readCsv(text);
  if (!read.ok) throw new Error(read.message);
  return read.records;
};
const check = (kind: ImportKind, text: string) => checkImport(kind, records(text), context);
const messages = (kind: ImportKind, text: string) =>
  check(kind, text).errors.map((e) => [e.row, e.message]);

describe('the five imports', () => {
  it('customers: three columns at least, names and a valid email; a header row is skipped', () => {
    const result = check(
      'customers',
      'firstName,lastName,email,phoneNumber\nAnn,Lee,ANN@example.com,(201) 555-0123\n,Kim,bo@example.com\nCy,,c@x.io\nDi,Ray\nEd,Fox,not-an-email',
    );
    expect(result.rows).toEqual([
      {
        row: 2,
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'ann@example.com',
        phoneNumber: '+12015550123',
      },
    ]);
    expect(result.errors.map((e) => [e.row, e.message])).toEqual([
      [3, importMessages.firstNameRequired],
      [4, importMessages.lastNameRequired],
      [5, 'This row has 2 columns; at least 3 columns are needed.'],
      [6, 'Email not-an-email is not a valid email address'],
    ]);
    expect(result.errors[0]!.cells).toEqual(['', 'Kim', 'bo@example.com']);
  });

  it('customers: as Add customer takes them — names within 150 characters, a phone the country reads', () => {
    expect(
      messages(
        'customers',
        [
          `${'A'.repeat(151)},Lee,a1@example.com`,
          `Ann,${'L'.repeat(151)},a2@example.com`,
          'Ann,Lee,a3@example.com,555',
          `Ann,Lee,a4@example.com,${'9'.repeat(41)}`,
          'Ann,Lee,a5@example.com,+44 20 7946 0958',
        ].join('\n'),
      ),
    ).toEqual([
      [1, 'First name is too long: at most 150 characters'],
      [2, 'Last name is too long: at most 150 characters'],
      [3, importMessages.phoneInvalid],
      [4, importMessages.phoneInvalid],
    ]);
    const [row] = check('customers', 'Ann,Lee,a5@example.com,+44 20 7946 0958').rows;
    expect(row && 'phoneNumber' in row && row.phoneNumber).toBe('+442079460958');
    expect(messages('tags', `ann@example.com,${'t'.repeat(61)}`)).toEqual([
      [1, 'Tag name is too long: at most 60 characters'],
    ]);
  });

  it('customers: an address a second time is refused with the row it is on first, whatever its case', () => {
    expect(
      messages(
        'customers',
        'Ann,Lee,ann@example.com\nBo,Kim,bo@example.com\nAnnie,Lee,ANN@Example.com\nAnn,Lee,ann@example.com',
      ),
    ).toEqual([
      [3, 'Email ann@example.com is already on row 1'],
      [4, 'Email ann@example.com is already on row 1'],
    ]);
    expect(check('customers', 'Ann,Lee,ann@example.com\nBo,Kim,bo@example.com').errors).toEqual([]);
  });

  it('product assignments: the spec’s messages for email, product, dates and discounts', () => {
    expect(
      messages(
        'assignments',
        [
          'zed@example.com,Gold membership,start-stripe-subscription,2027-04-01',
          'ann@example.com,Platinum,start-stripe-subscription,2027-04-01',
          'ann@example.com,Gold membership,start-stripe-subscription,04/01/2027',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-04-01,2027-03-31',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-03-01',
          'ann@example.com,10-class pack,start-stripe-subscription,2027-04-01',
          'ann@example.com,Gold membership,cancel-everything,2027-04-01',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-04-01,,bogus,5',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-04-01,,percentage,-5',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-04-01,2027-05-01,percentage,10',
          'ann@example.com,Gold membership,start-stripe-subscription,2027-04-01,,percentage,100',
        ].join('\n'),
      ),
    ).toEqual([
      [1, 'Email zed@example.com is not in the valid emails list'],
      [2, 'Product Platinum not found'],
      [3, 'Invalid date format'],
      [4, 'End date must be after start date'],
      [5, importMessages.startAfterToday],
      [6, 'Product 10-class pack is not a subscription: it cannot be started'],
      [
        7,
        'Action cancel-everything is not allowed; use one of: start-stripe-subscription, create-customer-subscription-invite, start-customer-subscription-for-external-payment',
      ],
      [8, importMessages.discountType],
      [9, importMessages.discountAmount],
      [11, importMessages.cardFree],
    ]);
    const ok = check(
      'assignments',
      'ann@example.com,gold membership,start-customer-subscription-for-external-payment,2026-04-01,2027-05-01,percentage,10',
    );
    expect(ok.rows).toEqual([
      {
        row: 1,
        email: 'ann@example.com',
        productId: 'p-gold',
        action: 'start-customer-subscription-for-external-payment',
        startDate: '2026-04-01',
        endDate: '2027-05-01',
        discount: { type: 'percentage', amount: 10 },
        // 4999 less 10% (499.9, rounded half up to 500).
        priceMinor: 4499,
      },
    ]);
  });

  it('product assignments: discounts within the price, one row per customer and product, and what is not built yet', () => {
    const external = 'start-customer-subscription-for-external-payment';
    expect(
      messages(
        'assignments',
        [
          `ann@example.com,Gold membership,${external},,,percentage,100.5`,
          `ann@example.com,Gold membership,${external},,,fixed_amount,50`,
          `ann@example.com,Gold membership,${external},,,fixed_amount,1.005`,
          `ann@example.com,Gold membership,${external},,,fixed_amount,49.99`,
          `ANN@example.com,gold MEMBERSHIP,${external},2026-01-01`,
          `bo@example.com,Gold membership,create-customer-subscription-invite,,2027-06-01`,
          `bo@example.com,10-class pack,create-customer-subscription-invite,,,fixed_amount,120`,
        ].join('\n'),
      ),
    ).toEqual([
      [1, importMessages.percentOver],
      [2, 'Discount 50 is more than the price of Gold membership'],
      [3, importMessages.discountAmount],
      [5, 'Product gold MEMBERSHIP for ann@example.com is already on row 4'],
      [7, importMessages.inviteFree],
    ]);
    const rows = checkImport(
      'assignments',
      records(
        `ann@example.com,Gold membership,${external},,,fixed_amount,49.99\nbo@example.com,10-class pack,create-customer-subscription-invite,2027-04-01,,percentage,25`,
      ),
      context,
    ).rows;
    expect(rows.map((r) => [r.action, r.priceMinor, r.startDate])).toEqual([
      [external, 0, null],
      ['create-customer-subscription-invite', 9000, '2027-04-01'],
    ]);
  });

  it('an agreed price is never below nothing nor above the price, whatever the discount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom('percentage' as const, 'fixed_amount' as const),
        fc.double({ min: 0.001, max: 200_000, noNaN: true }),
        (price, type, amount) => {
          const agreed = agreedPriceMinor(price, { type, amount });
          if (typeof agreed === 'string') return;
          expect(Number.isInteger(agreed)).toBe(true);
          expect(agreed).toBeGreaterThanOrEqual(0);
          expect(agreed).toBeLessThanOrEqual(price);
        },
      ),
    );
    expect(agreedPriceMinor(1005, { type: 'percentage', amount: 50 })).toBe(502);
    expect(agreedPriceMinor(1000, { type: 'fixed_amount', amount: 10 })).toBe(0);
    expect(agreedPriceMinor(1000, { type: 'fixed_amount', amount: 10.01 })).toBe('over-price');
  });

  it('credits: a product with a punch card and a positive whole number', () => {
    expect(
      messages(
        'credits',
        'customerEmail,productName,credits\nann@example.com,Gold membership,5\nann@example.com,10-class pack,0\nann@example.com,10-class pack,2.5\nbo@example.com,10-class pack,10',
      ),
    ).toEqual([
      [2, 'Product Gold membership has no punch card'],
      [3, importMessages.creditsPositive],
      [4, importMessages.creditsPositive],
    ]);
  });

  it('credits: one row per customer and product (the import is idempotent by the pair)', () => {
    expect(
      messages(
        'credits',
        'ann@example.com,10-class pack,5\nbo@example.com,10-class pack,5\nANN@example.com,10-Class Pack,3',
      ),
    ).toEqual([[3, 'Credits for ann@example.com and product 10-Class Pack are already on row 1']]);
  });

  it('tags: two columns, a name without commas', () => {
    expect(
      messages(
        'tags',
        'ann@example.com,"Morning, crew"\nann@example.com,\nann@example.com\nbo@example.com,VIP',
      ),
    ).toEqual([
      [1, 'Tag name cannot contain commas'],
      // A trailing separator is an empty column (a spreadsheet's blank cell), so the row has
      // its two columns and is told what is missing.
      [2, importMessages.tagRequired],
      [3, 'This row has 1 column; at least 2 columns are needed.'],
    ]);
  });

  it('two products of one name: a row naming them is refused, not given to either', () => {
    const products = importProductsOf([
      { id: 'p-a', name: 'Gold', type: 'recurring', punchCardGroups: 0, priceMinor: 4999 },
      { id: 'p-b', name: ' gold ', type: 'one-time', punchCardGroups: 1, priceMinor: 9999 },
      { id: 'p-c', name: 'Silver', type: 'recurring', punchCardGroups: 0, priceMinor: 2999 },
    ]);
    const twice = { ...context, products };
    const refused = (kind: ImportKind, text: string) =>
      checkImport(kind, records(text), twice).errors.map((e) => e.message);
    expect(
      refused(
        'assignments',
        'ann@example.com,GOLD,start-customer-subscription-for-external-payment,\nbo@example.com,Silver,start-customer-subscription-for-external-payment,',
      ),
    ).toEqual(['Product GOLD names 2 products: give each its own name, then import again']);
    expect(refused('credits', 'ann@example.com,Gold,5')).toEqual([
      'Product Gold names 2 products: give each its own name, then import again',
    ]);
  });

  it('contact lists: the list must exist', () => {
    expect(messages('contact-lists', 'ann@example.com,Newsletter\nbo@example.com,Leads')).toEqual([
      [2, 'Contact list not found'],
    ]);
  });
});
