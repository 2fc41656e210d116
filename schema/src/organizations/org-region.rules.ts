import { getTimezone } from 'countries-and-timezones';
import type { CountryCode } from 'libphonenumber-js';
import { isSupportedCountry } from 'libphonenumber-js';
import { orgTimeZone } from '../time-tracking/org-calendar.ts';

/**
 * The organisation's country and the conventions that follow from it (decision 0051): phone
 * numbers typed without a country code are read as this country's, and times, dates and
 * durations are written the way people there write them.
 *
 * Organisations record a time zone (spec §3 Org attributes.timezone, set in Organization) and a
 * free-text companyLocation ("Austin, TX", "the gym behind the station"). The time zone is the
 * structured one of the two, so it decides: its country in the IANA zone table
 * (countries-and-timezones), the first listed where a zone serves several (Europe/Zurich → CH).
 * A zone of no country (UTC, Etc/GMT+5) and an organisation without a zone give the default, US
 * (the spec's market: 'Trusted by small businesses across the US').
 */
export const DEFAULT_ORG_COUNTRY: CountryCode = 'US';

export function countryOfTimeZone(timeZone: string | null | undefined): CountryCode {
  const zone = getTimezone(orgTimeZone(timeZone));
  const country = zone?.countries[0];
  return country && isSupportedCountry(country) ? country : DEFAULT_ORG_COUNTRY;
}

/** What formats and parses for an organisation: its zone, its country, its locale. */
export type OrgRegion = {
  timeZone: string;
  country: CountryCode;
  /** A BCP 47 tag for Intl: English (the app's language) as written in the country. */
  locale: string;
  /** 12- or 24-hour clock, as the country's own language writes it. */
  hourCycle: 'h12' | 'h23';
};

const regions = new Map<string, OrgRegion>();

/**
 * The region of an organisation with this time zone. The texts are English, so the locale is
 * English-in-the-country (en-GB, en-DE) where the runtime knows it; where it does not (en-BR),
 * plain English with the clock of the country's own language (pt-BR: 24 hours).
 */
export function orgRegion(timeZone: string | null | undefined): OrgRegion {
  const zone = orgTimeZone(timeZone);
  const known = regions.get(zone);
  if (known) return known;
  const country = countryOfTimeZone(zone);
  const english = `en-${country}`;
  // Not supportedLocalesOf: it calls en-BR supported because 'en' is.
  const supported = new Intl.DateTimeFormat(english).resolvedOptions().locale === english;
  const region: OrgRegion = {
    timeZone: zone,
    country,
    locale: supported ? english : 'en',
    hourCycle: hourCycleOf(supported ? english : nativeLocaleOf(country)),
  };
  regions.set(zone, region);
  return region;
}

/** und-BR → pt-BR: the likely language of a country (Intl's likely-subtags data). */
function nativeLocaleOf(country: CountryCode): string {
  const likely = new Intl.Locale('und', { region: country }).maximize();
  return `${likely.language}-${country}`;
}

function hourCycleOf(locale: string): 'h12' | 'h23' {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12' ? 'h12' : 'h23';
}
