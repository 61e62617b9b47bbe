// Every number, price, count and date the site writes goes through here, on the server and in the
// browser (docs/decisions/0012-western-digits.md): Western digits 0-9 in both languages, a comma
// between thousands and a point before decimals, one way of writing a date.
//
// Intl formatters are costly to create (a locale data lookup each time) and cheap to reuse: pages
// format many prices and dates per render, so formatters are made once per locale and options.
import type { Locale } from '../i18n/config.ts';
import { LIBYA_TIME_ZONE } from './moderation-codes.ts';

/**
 * The Intl locale of each language. Plain Arabic with the Latin numbering system: `ar-EG` writes
 * Arabic-Indic digits (٠١٢), and `ar-LY` groups thousands with a point ("4.650"), which reads as
 * a price in dinars and dirhams.
 */
export const formatLocales: Record<Locale, string> = { ar: 'ar-u-nu-latn', en: 'en-US' };

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeTimeFormats = new Map<Locale, Intl.RelativeTimeFormat>();

export function numberFormat(locale: Locale, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options ?? {})}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(formatLocales[locale], { ...options, numberingSystem: 'latn' });
    numberFormats.set(key, format);
  }
  return format;
}

function dateTimeFormat(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(formatLocales[locale], { ...options, numberingSystem: 'latn' });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** "3 hours ago" in the locale (`numeric: 'auto'`: "yesterday"), made once per locale. */
export function relativeTimeFormat(locale: Locale): Intl.RelativeTimeFormat {
  let format = relativeTimeFormats.get(locale);
  if (!format) {
    // The option is in ECMA-402 but not in TypeScript's types.
    const options = { numeric: 'auto', numberingSystem: 'latn' } as Intl.RelativeTimeFormatOptions;
    format = new Intl.RelativeTimeFormat(formatLocales[locale], options);
    relativeTimeFormats.set(locale, format);
  }
  return format;
}

const DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric', timeZone: LIBYA_TIME_ZONE };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const MONTH: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric', timeZone: LIBYA_TIME_ZONE };
const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC' };

type When = string | number | Date;

/**
 * The site's dates (docs/product/site.md, "Numbers and dates"), in Libyan time: a day is written
 * with the month's name ("25 نوفمبر 2026", "November 25, 2026"), never as 25/11/2026.
 */
export function dates(locale: Locale) {
  return {
    /** "25 نوفمبر 2026" / "November 25, 2026". */
    date: (when: When) => dateTimeFormat(locale, DATE).format(new Date(when)),
    /** The date with the time of day: "25 نوفمبر 2026 في 1:25 م" / "November 25, 2026 at 1:25 PM". */
    dateTime: (when: When) => dateTimeFormat(locale, { ...DATE, ...TIME }).format(new Date(when)),
    /** The time of day: "1:25 م" / "1:25 PM" (a chat message). */
    time: (when: When) => dateTimeFormat(locale, { ...TIME, timeZone: LIBYA_TIME_ZONE }).format(new Date(when)),
    /** A month: "نوفمبر 2026" / "November 2026" (member since). */
    month: (when: When) => dateTimeFormat(locale, MONTH).format(new Date(when)),
    /** A day of a chart's axis, from its `YYYY-MM-DD` key: "25 نوفمبر" / "Nov 25". */
    day: (key: string) => dateTimeFormat(locale, DAY).format(new Date(`${key}T00:00:00Z`)),
  };
}
