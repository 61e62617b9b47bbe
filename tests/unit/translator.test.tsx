import type { ReactNode } from 'react';
// The site's translator (app/i18n/translator.ts, ADR 0016) and the sentence-with-links component
// (app/i18n/trans.tsx): what the catalogues use, as i18next did it for them.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { i18nFor } from '~/i18n/resources.server.ts';
import { Trans } from '~/i18n/trans.tsx';
import { createTranslator } from '~/i18n/translator.ts';

/** A link as the site's: Trans fills it with the catalogue's words. */
const Link = ({ href, children }: { href: string; children?: ReactNode }) => <a href={href}>{children}</a>;

const forms = (word: string) => ({
  [`${word}_zero`]: 'zero {{count}}',
  [`${word}_one`]: 'one {{count}}',
  [`${word}_two`]: 'two {{count}}',
  [`${word}_few`]: 'few {{count}}',
  [`${word}_many`]: 'many {{count}}',
  [`${word}_other`]: 'other {{count}}',
});

describe('plural forms', () => {
  const tAr = createTranslator('ar', { common: forms('ads') }).t;
  const tEn = createTranslator('en', { common: { ...forms('ads'), 'no-zero_one': 'one', 'no-zero_other': 'other' } }).t;

  it.each([
    [0, 'zero'],
    [1, 'one'],
    [2, 'two'],
    [3, 'few'],
    [10, 'few'],
    [11, 'many'],
    [99, 'many'],
    [100, 'other'],
    [101, 'other'],
    [102, 'other'],
    [103, 'few'],
    [1.5, 'other'],
  ])('Arabic %d is %s', (count, form) => {
    expect(tAr('ads', { count })).toBe(`${form} ${count}`);
  });

  it('English: one, other, and zero where the catalogue has it', () => {
    expect(tEn('ads', { count: 1 })).toBe('one 1');
    expect(tEn('ads', { count: 2 })).toBe('other 2');
    expect(tEn('ads', { count: 0 })).toBe('zero 0');
    // Without `_zero`, 0 is what the language's rule says: `other` in English.
    expect(tEn('no-zero', { count: 0 })).toBe('other');
  });

  it('a form the catalogue lacks falls back to the bare key, then to the key itself', () => {
    const t = createTranslator('ar', { common: { a_one: 'one', a_other: 'other', b: 'bare {{count}}' } }).t;
    expect(t('a', { count: 1 })).toBe('one');
    expect(t('a', { count: 100 })).toBe('other');
    expect(t('a', { count: 3 })).toBe('a');
    expect(t('b', { count: 3 })).toBe('bare 3');
  });

  it('only a number chooses a form', () => {
    const t = createTranslator('ar', { common: { ...forms('ads'), ads: 'bare' } }).t;
    expect(t('ads', { count: undefined })).toBe('bare');
    expect(t('ads', { count: '3' as unknown as number })).toBe('bare');
  });

  it('the real catalogues: Arabic six forms with Western digits, English one and other', () => {
    const t = createTranslator('ar', ar).t;
    expect(t('catalog:ads-count', { count: 0 })).toBe(i18nFor('ar').t('catalog:ads-count_zero'));
    expect(t('catalog:categories-count', { count: 3 })).toBe('3 فئات');
    expect(t('catalog:categories-count', { count: 11 })).toBe('11 فئة');
    expect(t('catalog:categories-count', { count: 1234 })).toBe('1,234 فئة');
    const te = createTranslator('en', en).t;
    expect(te('catalog:categories-count', { count: 1 })).toBe('1 category');
    expect(te('catalog:categories-count', { count: 0 })).toBe('No categories');
  });
});

describe('interpolation', () => {
  const t = createTranslator('en', {
    common: { hi: 'Hi {{name}}, {{ n , number }} of {{total, number}}', raw: '{{n}} {{x, unknown}}' },
  }).t;

  it('puts the values in as they are, numbers formatted with `number`', () => {
    expect(t('hi', { name: '<b>&', n: 1234.5, total: 1e6 })).toBe('Hi <b>&, 1,234.5 of 1,000,000');
    expect(t('raw', { n: 1234, x: 5 })).toBe('1234 5');
    expect(createTranslator('ar', { common: { n: '{{n, number}}' } }).t('n', { n: 1234567 })).toBe('1,234,567');
  });

  it('keeps a placeholder without its option, empties one given as undefined or null', () => {
    expect(t('hi')).toBe('Hi {{name}}, {{ n , number }} of {{total, number}}');
    expect(t('hi', { name: undefined, total: 2 })).toBe('Hi , {{ n , number }} of 2');
    expect(t('hi', { name: null, n: 1 })).toBe('Hi , 1 of {{total, number}}');
  });

  it('does not read a value as a key or a placeholder', () => {
    expect(t('hi', { name: '{{total}} $t(raw)', n: 1, total: 2 })).toBe('Hi {{total}} $t(raw), 1 of 2');
  });
});

describe('keys and namespaces', () => {
  const translator = createTranslator('en', {
    common: { title: 'Souq', nested: { deep: { key: 'Deep' } }, empty: '' },
    search: { title: 'Search' },
  });
  const { t } = translator;

  it('reads nested keys, in the default namespace or the one before the colon', () => {
    expect(t('title')).toBe('Souq');
    expect(t('nested.deep.key')).toBe('Deep');
    expect(t('search:title')).toBe('Search');
    expect(translator.fixed('search')('title')).toBe('Search');
    expect(translator.fixed('search')('common:title')).toBe('Souq');
    expect(translator.fixed('search')).toBe(translator.fixed('search'));
  });

  it('answers a missing key with the key, without its namespace', () => {
    expect(t('nope')).toBe('nope');
    expect(t('search:nope.deeper')).toBe('nope.deeper');
    expect(t('unknown-ns:title')).toBe('title');
    // A key naming a group of keys, not a text, is missing too.
    expect(t('nested.deep')).toBe('nested.deep');
    expect(t('title.more')).toBe('title.more');
    expect(t('constructor')).toBe('constructor');
  });

  it('uses the default value only when the key has no text, interpolated', () => {
    expect(t('nope', { defaultValue: 'Hi {{name}}', name: 'Sara' })).toBe('Hi Sara');
    expect(t('nope', { defaultValue: '' })).toBe('');
    expect(t('title', { defaultValue: 'x' })).toBe('Souq');
    expect(t('empty', { defaultValue: 'x' })).toBe('');
  });

  it('adds a namespace later (an area’s catalogue)', () => {
    const late = createTranslator('ar', {});
    expect(late.has('auth')).toBe(false);
    expect(late.t('auth:title')).toBe('title');
    late.add('auth', { title: 'دخول' });
    expect(late.has('auth')).toBe(true);
    expect(late.t('auth:title')).toBe('دخول');
    expect(late.locale).toBe('ar');
  });
});

describe('Trans', () => {
  const t = createTranslator('en', {
    common: {
      terms: 'I accept the <terms>terms</terms> and the <privacy>policy</privacy>.',
      odd: 'Read <other>this</other> and <a>that</a>',
      count: '{{n}} <b>new</b>',
    },
  }).fixed('common');

  it('puts each marked part into its element', () => {
    const html = renderToString(
      <Trans t={t} i18nKey="terms" components={{ terms: <Link href="/terms" />, privacy: <Link href="/privacy" /> }} />,
    );
    expect(html).toBe('I accept the <a href="/terms">terms</a> and the <a href="/privacy">policy</a>.');
  });

  it('leaves a tag of no given element as written, and interpolates values', () => {
    expect(renderToString(<Trans t={t} i18nKey="odd" components={{ a: <em /> }} />)).toBe(
      'Read &lt;other&gt;this&lt;/other&gt; and <em>that</em>',
    );
    expect(renderToString(<Trans t={t} i18nKey="count" values={{ n: 3 }} components={{ b: <b /> }} />)).toBe(
      '3 <b>new</b>',
    );
  });

  it('the register page’s sentence in both languages', () => {
    for (const locale of ['ar', 'en'] as const) {
      const html = renderToString(
        <Trans
          t={i18nFor(locale).fixed('auth')}
          i18nKey="register.terms"
          components={{
            terms: <Link href="/terms" />,
            privacy: <Link href="/privacy" />,
          }}
        />,
      );
      expect(html).toMatch(/^[^<]+<a href="\/terms">[^<]+<\/a>[^<]+<a href="\/privacy">[^<]+<\/a>$/);
    }
  });
});
