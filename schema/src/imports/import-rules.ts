import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { PERSON_NAME_MAX } from '../app/constants.ts';
import { contactListKey } from '../crm/contact-lists.zod.ts';
import { crmMessages } from '../crm/crm.messages.ts';
import { TAG_MAX_LENGTH } from '../crm/customer-tag.zod.ts';
import { normalisePhone, PHONE_INPUT_MAX } from '../crm/phone.rules.ts';
import { isDayKey, type DayKey } from '../time-tracking/org-calendar.ts';
import type { CsvRecord } from './csv.ts';

/**
 * The five CSV imports (issue 17; spec §3 row shapes, §5 rules, §8 messages, §9 constants): the
 * columns of each, the rules of a row and their messages to the letter, once — the browser's
 * preview and the server's check before writing run these same functions. What a rule needs to
 * know of the organisation (its customers' emails, products, contact lists, today) comes in a
 * `ImportContext` the caller reads.
 */

export const importKinds = [
  'customers',
  'assignments',
  'credits',
  'tags',
  'contact-lists',
] as const;
export type ImportKind = (typeof importKinds)[number];

/** The columns of each import, in order (spec §3). */
export const importColumns = {
  customers: ['firstName', 'lastName', 'email', 'phoneNumber'],
  assignments: [
    'customerEmail',
    'productName',
    'action',
    'startDate',
    'endDate',
    'discountType',
    'discountAmount',
  ],
  credits: ['customerEmail', 'productName', 'credits'],
  tags: ['customerEmail', 'tagName'],
  'contact-lists': ['customerEmail', 'contactListName'],
} as const satisfies Record<ImportKind, readonly string[]>;

/** The fewest columns a row of each import has (spec §9). */
export const minimumColumns: Record<ImportKind, number> = {
  customers: 3,
  assignments: 4,
  credits: 3,
  tags: 2,
  'contact-lists': 2,
};

/** spec §9: the preview's page and the text area's rows. */
export const PREVIEW_PAGE_SIZE = 50;
export const TEXT_AREA_MAX_ROWS = 50;
/** Page numbers are shown when the preview has more pages than this. */
export const PAGE_NUMBERS_AFTER = 3;

/** spec §3/§5: what an assignment row may ask for (the invitation's action types). */
export const assignmentActions = [
  'start-stripe-subscription',
  'create-customer-subscription-invite',
  'start-customer-subscription-for-external-payment',
] as const;
export const discountTypes = ['fixed_amount', 'percentage'] as const;

export const importMessages = {
  // spec §8, to the letter.
  emailNotValid: 'Email {x} is not in the valid emails list',
  productNotFound: 'Product {x} not found',
  invalidDate: 'Invalid date format',
  endBeforeStart: 'End date must be after start date',
  tagComma: 'Tag name cannot contain commas',
  listNotFound: 'Contact list not found',
  errorsHeading: 'We detected some errors on these rows.',
  // Ours, where the spec names a rule without its words.
  tooFewColumns: 'This row has {n}; at least {min} columns are needed.',
  firstNameRequired: 'First name is required',
  firstNameTooLong: `First name is too long: at most ${PERSON_NAME_MAX} characters`,
  lastNameTooLong: `Last name is too long: at most ${PERSON_NAME_MAX} characters`,
  phoneInvalid: crmMessages.invalidPhone,
  tagTooLong: `Tag name is too long: at most ${TAG_MAX_LENGTH} characters`,
  lastNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email {x} is not a valid email address',
  emailTwice: 'Email {x} is already on row {n}',
  creditsTwice: 'Credits for {x} and product {p} are already on row {n}',
  actionNotAllowed: 'Action {x} is not allowed; use one of: {actions}',
  startNeedsRecurring: 'Product {x} is not a subscription: it cannot be started',
  startAfterToday: 'Start date must be after today',
  startRequired: 'A start date is required to start a subscription',
  discountType: 'Discount type must be fixed_amount or percentage',
  discountAmount: 'Discount amount must be a positive number',
  percentOver: 'A percentage discount is at most 100',
  discountOverPrice: 'Discount {x} is more than the price of {p}',
  assignmentTwice: 'Product {p} for {x} is already on row {n}',
  inviteFree: 'A discount on an invitation must leave something to pay',
  cardFree: 'A discount on a card subscription must leave something to pay',
  // Said by the server's check (cards are not on staff devices).
  noCardOnFile: 'Customer {x} has no card on file',
  noPunchCard: 'Product {x} has no punch card',
  productNameTwice: 'Product {x} names {n} products: give each its own name, then import again',
  creditsPositive: 'Credits must be a positive whole number',
  tagRequired: 'Tag name is required',
  listRequired: 'Contact list name is required',
} as const;

const say = (message: string, values: Record<string, string | number>) =>
  message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));

/** What the rules need to know of the organisation, read by the caller. */
export type ImportContext = {
  /** The organisation's customers' emails, lower-case (the "valid emails list"). */
  customerEmails: ReadonlySet<string>;
  /** Products by name, lower-case. */
  products: ReadonlyMap<string, ImportProduct>;
  /** Contact lists by name key (contactListKey). */
  contactLists: ReadonlyMap<string, { id: string }>;
  /** Today in the organisation's zone. */
  today: DayKey;
  /** The organisation's country: a phone without its country code is read as one of its. */
  country: CountryCode;
};

export type RowError = { row: number; message: string; cells: string[] };

/** A product as the rules see it; its price in minor units (what a discount is taken from). */
export type ImportProduct = {
  id: string;
  recurring: boolean;
  punchCardGroups: number;
  priceMinor: number;
  /** How many of the catalogue's products have this name, when more than one. */
  sameName?: number;
};

/**
 * The rules' products by name (lower-case, trimmed) from the catalogue as staff devices have it:
 * the browser's preview and the server's check read it the same way. Two products with one name
 * are marked (`sameName`): a row naming them is refused rather than given to either — a card
 * charged for the other product's price, or credits on the wrong punch card, would be a silent
 * mistake.
 */
export function importProductsOf(
  catalogue: Iterable<{
    id: string;
    name: string;
    type: string;
    punchCardGroups: number;
    priceMinor: number;
  }>,
): ImportContext['products'] {
  const byName = new Map<string, ImportProduct>();
  for (const product of catalogue) {
    const key = product.name.trim().toLowerCase();
    const seen = byName.get(key);
    if (seen) seen.sameName = (seen.sameName ?? 1) + 1;
    else
      byName.set(key, {
        id: product.id,
        recurring: product.type === 'recurring',
        punchCardGroups: product.punchCardGroups,
        priceMinor: product.priceMinor,
      });
  }
  return byName;
}

export type CustomerRow = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
};
export type AssignmentRow = {
  email: string;
  productId: string;
  action: (typeof assignmentActions)[number];
  startDate: DayKey | null;
  endDate: DayKey | null;
  discount: { type: (typeof discountTypes)[number]; amount: number } | null;
  /** The price agreed with the customer: the product's, less the row's discount (minor units). */
  priceMinor: number;
};
export type CreditRow = { email: string; productId: string; credits: number };
export type TagRow = { email: string; tagName: string };
export type ContactListRow = { email: string; contactListId: string };

export type ImportRow = {
  customers: CustomerRow;
  assignments: AssignmentRow;
  credits: CreditRow;
  tags: TagRow;
  'contact-lists': ContactListRow;
};

export type ImportCheck<K extends ImportKind> = {
  rows: Array<{ row: number } & ImportRow[K]>;
  errors: RowError[];
};

const emailFormat = z.email();

/** Whether the first record is the header row (its first cell names the first column). */
export function isHeader(kind: ImportKind, record: CsvRecord | undefined): boolean {
  const first = record?.cells[0]?.replace(/[\s_-]/g, '').toLowerCase();
  return first === importColumns[kind][0].toLowerCase();
}

/**
 * Every row of an import checked: the rows to write, and the bad ones with their row number,
 * message and data. A header row, when there is one, is neither.
 */
export function checkImport<K extends ImportKind>(
  kind: K,
  records: readonly CsvRecord[],
  context: ImportContext,
): ImportCheck<K> {
  const rows: Array<{ row: number } & ImportRow[K]> = [];
  const errors: RowError[] = [];
  const data = isHeader(kind, records[0]) ? records.slice(1) : records;
  // A customer is one row (the same address twice would be two people with one account), and
  // so are one customer's credits of one product (the import is idempotent by the pair).
  const firstRowOf = new Map<string, number>();
  for (const record of data) {
    const result = checkRow(kind, record.cells, record.columns ?? record.cells.length, context);
    if ('message' in result) {
      errors.push({ row: record.row, message: result.message, cells: record.cells });
      continue;
    }
    const twice = onlyOnce(kind, result.value as ImportRow[K], record.cells);
    if (twice) {
      const first = firstRowOf.get(twice.key);
      if (first !== undefined) {
        errors.push({ row: record.row, message: twice.message(first), cells: record.cells });
        continue;
      }
      firstRowOf.set(twice.key, record.row);
    }
    rows.push({ row: record.row, ...(result.value as ImportRow[K]) });
  }
  return { rows, errors };
}

/** What may stand in one row of an import only, and what a second row is told. */
function onlyOnce(
  kind: ImportKind,
  value: ImportRow[ImportKind],
  cells: readonly string[],
): { key: string; message: (first: number) => string } | null {
  if (kind === 'customers') {
    const { email } = value as CustomerRow;
    return { key: email, message: (n) => say(importMessages.emailTwice, { x: email, n }) };
  }
  if (kind === 'credits') {
    const { email, productId } = value as CreditRow;
    return {
      key: `${email}\n${productId}`,
      message: (n) => say(importMessages.creditsTwice, { x: email, p: cells[1] ?? '', n }),
    };
  }
  if (kind === 'assignments') {
    // Idempotent by customer and product: two rows of one pair would be one subscription.
    const { email, productId } = value as AssignmentRow;
    return {
      key: `${email}\n${productId}`,
      message: (n) => say(importMessages.assignmentTwice, { x: email, p: cells[1] ?? '', n }),
    };
  }
  return null;
}

type Checked<T> = { value: T } | { message: string };

function checkRow(
  kind: ImportKind,
  cells: readonly string[],
  columns: number,
  context: ImportContext,
): Checked<ImportRow[ImportKind]> {
  const min = minimumColumns[kind];
  if (columns < min)
    return {
      message: say(importMessages.tooFewColumns, {
        n: `${columns} column${columns === 1 ? '' : 's'}`,
        min,
      }),
    };
  const cell = (i: number) => cells[i]?.trim() ?? '';
  switch (kind) {
    case 'customers':
      return customerRow(cell, context);
    case 'assignments':
      return assignmentRow(cell, context);
    case 'credits':
      return creditRow(cell, context);
    case 'tags':
      return tagRow(cell, context);
    case 'contact-lists':
      return contactListRow(cell, context);
  }
}

type Cell = (i: number) => string;

/**
 * A customer as Add customer would take them: names within what a roster document holds, a
 * valid address, and a phone the organisation's country reads (stored in E.164, as typed ones).
 */
function customerRow(cell: Cell, context: ImportContext): Checked<CustomerRow> {
  const [firstName, lastName, email, phone] = [cell(0), cell(1), cell(2), cell(3)];
  if (!firstName) return { message: importMessages.firstNameRequired };
  if (firstName.length > PERSON_NAME_MAX) return { message: importMessages.firstNameTooLong };
  if (!lastName) return { message: importMessages.lastNameRequired };
  if (lastName.length > PERSON_NAME_MAX) return { message: importMessages.lastNameTooLong };
  if (!email) return { message: importMessages.emailRequired };
  if (email.length > 320 || !emailFormat.safeParse(email).success)
    return { message: say(importMessages.emailInvalid, { x: email.slice(0, 80) }) };
  let phoneNumber = '';
  if (phone !== '') {
    const stored = phone.length <= PHONE_INPUT_MAX ? normalisePhone(phone, context.country) : null;
    if (!stored) return { message: importMessages.phoneInvalid };
    phoneNumber = stored;
  }
  return { value: { firstName, lastName, email: email.toLowerCase(), phoneNumber } };
}

/** A customer of the organisation named by email (the "valid emails list"). */
function knownEmail(email: string, context: ImportContext): Checked<string> {
  const lower = email.toLowerCase();
  return context.customerEmails.has(lower)
    ? { value: lower }
    : { message: say(importMessages.emailNotValid, { x: email }) };
}

function productNamed(name: string, context: ImportContext): Checked<ImportProduct> {
  const product = context.products.get(name.trim().toLowerCase());
  if (!product) return { message: say(importMessages.productNotFound, { x: name }) };
  if (product.sameName)
    return { message: say(importMessages.productNameTwice, { x: name, n: product.sameName }) };
  return { value: product };
}

function dateCell(text: string): Checked<DayKey | null> {
  if (text === '') return { value: null };
  // A day a calendar has, in years a subscription can have (the database's dates start at 4713
  // BC; year 0000 is no year of ours).
  return isDayKey(text) && text >= '1900-01-01' && text <= '2999-12-31'
    ? { value: text }
    : { message: importMessages.invalidDate };
}

function assignmentRow(cell: Cell, context: ImportContext): Checked<AssignmentRow> {
  const email = knownEmail(cell(0), context);
  if ('message' in email) return email;
  const named = productNamed(cell(1), context);
  if ('message' in named) return named;
  const product = named.value;
  const action = assignmentActions.find((a) => a === cell(2));
  if (!action)
    return {
      message: say(importMessages.actionNotAllowed, {
        x: cell(2),
        actions: assignmentActions.join(', '),
      }),
    };
  const start = dateCell(cell(3));
  if ('message' in start) return start;
  const end = dateCell(cell(4));
  if ('message' in end) return end;
  // No start is today (it starts when the file is read): an end must still come after it.
  if (end.value && end.value <= (start.value ?? context.today))
    return { message: importMessages.endBeforeStart };
  if (action === 'start-stripe-subscription') {
    if (!product.recurring)
      return { message: say(importMessages.startNeedsRecurring, { x: cell(1) }) };
    if (!start.value) return { message: importMessages.startRequired };
    if (start.value <= context.today) return { message: importMessages.startAfterToday };
  }
  let discount: AssignmentRow['discount'] = null;
  if (cell(5) !== '') {
    const type = discountTypes.find((t) => t === cell(5));
    if (!type) return { message: importMessages.discountType };
    // Written as a spreadsheet writes a number (no 0x10, 1e3, Infinity).
    const amount = Number(cell(6));
    if (!/^\d+(\.\d+)?$/.test(cell(6)) || !Number.isFinite(amount) || amount <= 0)
      return { message: importMessages.discountAmount };
    discount = { type, amount };
  }
  const priceMinor = discount ? agreedPriceMinor(product.priceMinor, discount) : product.priceMinor;
  if (typeof priceMinor === 'string')
    return {
      message:
        priceMinor === 'percent-over'
          ? importMessages.percentOver
          : priceMinor === 'over-price'
            ? say(importMessages.discountOverPrice, { x: cell(6), p: cell(1) })
            : importMessages.discountAmount,
    };
  if (action !== 'start-customer-subscription-for-external-payment') {
    // Paid by card: a price of nothing is no charge to make.
    if (priceMinor <= 0)
      return {
        message:
          action === 'start-stripe-subscription'
            ? importMessages.cardFree
            : importMessages.inviteFree,
      };
  }
  return {
    value: {
      email: email.value,
      productId: product.id,
      action,
      startDate: start.value,
      endDate: end.value,
      discount,
      priceMinor,
    },
  };
}

/**
 * The price agreed with a customer: the product's price less an imported discount, in minor
 * units. A fixed amount is in the currency's major units with at most two decimals; a
 * percentage at most 100 (the discount is rounded half up to a minor unit). Neither may take the
 * price below nothing.
 */
export function agreedPriceMinor(
  priceMinor: number,
  discount: { type: (typeof discountTypes)[number]; amount: number },
): number | 'percent-over' | 'over-price' | 'bad-amount' {
  if (!Number.isFinite(discount.amount) || discount.amount <= 0) return 'bad-amount';
  if (discount.type === 'percentage') {
    if (discount.amount > 100) return 'percent-over';
    return priceMinor - Math.round((priceMinor * discount.amount) / 100);
  }
  const minor = Math.round(discount.amount * 100);
  if (Math.abs(minor - discount.amount * 100) > 1e-6) return 'bad-amount';
  if (minor > priceMinor) return 'over-price';
  return priceMinor - minor;
}

function creditRow(cell: Cell, context: ImportContext): Checked<CreditRow> {
  const email = knownEmail(cell(0), context);
  if ('message' in email) return email;
  const named = productNamed(cell(1), context);
  if ('message' in named) return named;
  const product = named.value;
  // Punch cards come with one-time products (a sale gives none on a subscription either).
  if (product.punchCardGroups === 0 || product.recurring)
    return { message: say(importMessages.noPunchCard, { x: cell(1) }) };
  if (!/^\d+$/.test(cell(2)) || Number(cell(2)) <= 0 || Number(cell(2)) > 100_000)
    return { message: importMessages.creditsPositive };
  return { value: { email: email.value, productId: product.id, credits: Number(cell(2)) } };
}

function tagRow(cell: Cell, context: ImportContext): Checked<TagRow> {
  const email = knownEmail(cell(0), context);
  if ('message' in email) return email;
  const tagName = cell(1);
  if (!tagName) return { message: importMessages.tagRequired };
  if (tagName.length > TAG_MAX_LENGTH) return { message: importMessages.tagTooLong };
  if (tagName.includes(',')) return { message: importMessages.tagComma };
  return { value: { email: email.value, tagName } };
}

function contactListRow(cell: Cell, context: ImportContext): Checked<ContactListRow> {
  const email = knownEmail(cell(0), context);
  if ('message' in email) return email;
  if (!cell(1)) return { message: importMessages.listRequired };
  const list = context.contactLists.get(contactListKey(cell(1)));
  if (!list) return { message: importMessages.listNotFound };
  return { value: { email: email.value, contactListId: list.id } };
}
