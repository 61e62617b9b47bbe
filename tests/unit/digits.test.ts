// One digit policy (docs/decisions/0012-western-digits.md): every number and date the site writes
// has Western digits 0-9, in Arabic as in English, and goes through app/lib/intl.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { locales } from '~/i18n/config.ts';
import { i18nFor } from '~/i18n/resources.server.ts';
import { createTranslator } from '~/i18n/translator.ts';
import { dates, numberFormat, relativeTimeFormat } from '~/lib/intl.ts';

/** Arabic-Indic (٠-٩), Persian (۰-۹) digits and the Arabic decimal and group separators. */
const OTHER_DIGITS = /[\u0660-\u066c\u06f0-\u06f9]/;

describe('formatters write Western digits in both languages', () => {
  const when = new Date('2026-11-25T10:05:00Z');
  it.each(locales)('numbers, prices, percentages and compact counts in %s', (locale) => {
    const written = [
      numberFormat(locale).format(2_650_000.5),
      numberFormat(locale, { maximumFractionDigits: 0 }).format(4650),
      numberFormat(locale, { useGrouping: false }).format(2010),
      numberFormat(locale, { style: 'percent' }).format(0.42),
      numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(12_500),
      // A caller asking for another numbering system still gets Western digits.
      numberFormat(locale, { numberingSystem: 'arab' }).format(1234),
    ];
    for (const text of written) {
      expect(text).not.toMatch(OTHER_DIGITS);
      expect(text).toMatch(/[0-9]/);
    }
    expect(numberFormat(locale).format(2_650_000.5)).toContain('2,650,000.5');
  });

  it.each(locales)('dates, times, months, chart days and relative times in %s', (locale) => {
    const d = dates(locale);
    const written = [
      d.date(when),
      d.dateTime(when),
      d.month(when),
      d.day('2026-11-25'),
      relativeTimeFormat(locale).format(-3, 'hour'),
      relativeTimeFormat(locale).format(-16, 'day'),
    ];
    for (const text of written) {
      expect(text).not.toMatch(OTHER_DIGITS);
      expect(text).toMatch(/[0-9]/);
    }
    // One date format: the day, the month's name and the year; never 25/11/2026.
    expect(d.date(when)).toMatch(/25/);
    expect(d.date(when)).toMatch(/2026/);
    expect(d.date(when)).not.toMatch(/\d\s*[/.\-‏]\s*\d/);
  });

  it('catalogue counts ({{count, number}}) in Arabic', () => {
    const t = createTranslator('ar', ar).t;
    expect(t('catalog:categories-count', { count: 1234 })).toBe('1,234 فئة');
    expect(i18nFor('ar').t('validation:min', { field: 'x', count: 15 })).toBe('يجب ألا يقل حقل x عن 15 حرفًا');
    const tEn = createTranslator('en', en).t;
    expect(tEn('catalog:categories-count', { count: 1234 })).toBe('1,234 categories');
  });
});

const files = (dir: string, ext = /\.(ts|tsx)$/): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, ext);
    return ext.test(name) ? [path] : [];
  });

describe('the site’s own words', () => {
  it('Arabic catalogues, information pages, mails and texts write Western digits', () => {
    const sources = [
      ...files(join('app', 'i18n', 'locales', 'ar'), /\.json$/),
      ...files(join('content', 'pages', 'ar'), /\.md$/),
      ...files(join('server', 'mail')),
      ...files(join('server', 'sms')),
    ];
    const offenders = sources.filter((path) => OTHER_DIGITS.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('no formatter outside app/lib/intl.ts', () => {
  it('app/ and server/ make no Intl number, date or relative-time format of their own', () => {
    const own = /new Intl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat)|\.toLocale(String|DateString|TimeString)\(/;
    const offenders = [...files('app'), ...files('server')].filter(
      (path) => path !== join('app', 'lib', 'intl.ts') && own.test(readFileSync(path, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
