import { customType } from 'drizzle-orm/pg-core';

/**
 * PostgreSQL's text for a `timestamptz` (DateStyle ISO): `0025-11-20 09:00:00.123+00`, with
 * any number of year digits, an offset that may carry minutes and seconds (local mean time:
 * `-04:56:02`), ` BC` for years before 1; JSON output puts a `T` between date and time.
 */
const pgTimestampPattern =
  /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?( BC)?$/;

/**
 * The instant PostgreSQL's text names, for every year it stores and whatever the session's
 * time zone; an Invalid Date for what is no instant (`infinity`) or lies beyond what a Date
 * holds. Never throws: a row with such a value must still be read, so the caller can skip it.
 *
 * Why not `new Date(text)`: Node reads this text with its legacy parser, which takes years
 * 0–99 for 19xx/20xx (0001 → 2001, 0012-12-31 → 2031-12-12) and refuses year 0025, ` BC`
 * and offsets with seconds outright (decision 0040).
 */
export function parsePgTimestamp(text: string): Date {
  const m = pgTimestampPattern.exec(text);
  if (!m) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om, os, bc] = m;
  const year = bc ? 1 - Number(y) : Number(y);
  const ms = fraction ? Number(fraction.padEnd(3, '0').slice(0, 3)) : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC also maps years 0–99 to 1900–1999.
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(mo) - 1, Number(d));
  wall.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const offsetSeconds =
    zulu || !sign
      ? 0
      : (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0));
  return new Date(wall.getTime() - offsetSeconds * 1000);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * An instant as PostgreSQL itself writes it in UTC, which it reads back whatever its time zone
 * and DateStyle: years before 1 as ` BC`, years past 9999 without the `+` of toISOString.
 */
export function formatPgTimestamp(date: Date): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new RangeError('An invalid date cannot be stored.');
  const year = date.getUTCFullYear();
  const era = year < 1 ? ' BC' : '';
  return (
    `${pad(year < 1 ? 1 - year : year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.` +
    `${pad(date.getUTCMilliseconds(), 3)}+00${era}`
  );
}

/**
 * A `timestamp with time zone` column read and written by the two functions above, the same on
 * both drivers (drizzle hands either the database's text). Drizzle's own `timestamp()` reads
 * that text with `new Date(text)`; the SQL type is the same, so no migration follows from the
 * switch. Use it for every time a replicated document carries.
 */
export const instant = customType<{
  data: Date;
  driverData: string | Date;
  config: { precision?: number };
}>({
  dataType: (config) =>
    config?.precision === undefined
      ? 'timestamp with time zone'
      : `timestamp (${config.precision}) with time zone`,
  toDriver: (value) => formatPgTimestamp(value),
  fromDriver: (value) => (typeof value === 'string' ? parsePgTimestamp(value) : value),
});
