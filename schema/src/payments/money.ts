/**
 * Money is integer minor units everywhere (spec §3 Totaled invoice: "Amounts are minor units,
 * divided by 100 for display"). No floating-point amount is ever stored, summed or compared:
 * every division goes through `divideRounded`, which works on integers.
 */

/** An amount in minor units (cents): a safe, non-negative-or-negative integer. */
export type Minor = number;

/** The largest price or fee a product may carry: 1,000,000.00 in the organisation's currency. */
export const MAX_AMOUNT_MINOR = 100_000_000;

export function isMinor(value: number): boolean {
  return Number.isSafeInteger(value);
}

/**
 * `numerator / denominator` rounded half up, on integers only (both ≥ 0, denominator > 0):
 * 1/2 → 1, 3/2 → 2, 5/4 → 1. Exact for any numerator below 2^52, which every product of an
 * amount (≤ 10^8) and a day count or percentage (≤ 10^4) is.
 */
export function divideRounded(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator)) {
    throw new RangeError(`divideRounded takes integers, got ${numerator}/${denominator}`);
  }
  if (numerator < 0 || denominator <= 0) {
    throw new RangeError(`divideRounded takes n ≥ 0 and d > 0, got ${numerator}/${denominator}`);
  }
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  return remainder * 2 >= denominator ? quotient + 1 : quotient;
}

/** The organisation's currency when it has not chosen one (the spec's market is the US). */
export const DEFAULT_CURRENCY = 'USD';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * '$12.50' — an amount divided by 100 (spec §9 "Prices shown in the org currency, amounts
 * divided by 100") in the organisation's currency and locale.
 */
export function formatMoney(minor: Minor, currency = DEFAULT_CURRENCY, locale = 'en-US'): string {
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, format);
  }
  // Integer division by 100 keeps the cents exact (no 0.1 + 0.2 on the way).
  const sign = minor < 0 ? -1 : 1;
  const whole = Math.floor(Math.abs(minor) / 100);
  const cents = Math.abs(minor) % 100;
  return format.format(sign * Number(`${whole}.${String(cents).padStart(2, '0')}`));
}

/**
 * What a person types as a price ('12', '12.5', '12.50', '1,200.00') in minor units, or null
 * when it is not an amount with at most two decimals. Parsed as text, never through a float.
 */
export function parseMoneyInput(text: string): Minor | null {
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const whole = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + cents;
}
