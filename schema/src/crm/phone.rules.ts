import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { crmMessages } from './crm.messages.ts';

/**
 * Phone numbers (issue 14): typed any way ('(201) 555-0123', '+44 20 7946 0958'), stored in
 * E.164 ('+12015550123'), shown in the national format of the organisation's country
 * ('(201) 555-0123') and internationally when from another country. A number without its
 * country code is read as the organisation's country's (org-region.rules.ts, decision 0051).
 * Extensions are not kept: E.164 has none.
 */

/** The longest typed number accepted (digits, spaces, punctuation). */
export const PHONE_INPUT_MAX = 40;

/** The E.164 form of a typed number, or null when it is not a valid number. */
export function normalisePhone(typed: string, country: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(typed.trim(), country);
  return parsed?.isValid() ? parsed.number : null;
}

/** Whether a stored value is a valid number in E.164 (what every writer stores). */
export function isStoredPhone(value: string): boolean {
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}

/**
 * A stored number as people in `country` write it: national for a number of that country,
 * international otherwise. A value stored before numbers were normalised is shown as it is.
 */
export function displayPhone(stored: string, country: CountryCode): string {
  const parsed = parsePhoneNumberFromString(stored);
  if (!parsed?.isValid()) return stored;
  return parsed.country === country ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * A phone field of a form or request: '' when left empty, else the number in E.164; anything
 * else is refused with crmMessages.invalidPhone. Browser and server both parse with this, each
 * with the organisation's country.
 */
export function phoneFieldSchema(country: CountryCode) {
  return z
    .string()
    .trim()
    .max(PHONE_INPUT_MAX, crmMessages.invalidPhone)
    .transform((typed, ctx) => {
      if (typed === '') return '';
      const number = normalisePhone(typed, country);
      if (number) return number;
      ctx.addIssue({ code: 'custom', message: crmMessages.invalidPhone });
      return z.NEVER;
    });
}
