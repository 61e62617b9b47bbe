import { describe, expect, it } from 'vitest';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { localeFromAcceptLanguage, localeOfPath, localizePath, stripLocale } from '~/i18n/config.ts';
import { createTranslator } from '~/i18n/translator.ts';

describe('locale paths', () => {
  it('reads the locale from the path', () => {
    expect(localeOfPath('/')).toBe('ar');
    expect(localeOfPath('/faq')).toBe('ar');
    expect(localeOfPath('/en')).toBe('en');
    expect(localeOfPath('/en/faq')).toBe('en');
    expect(localeOfPath('/english-books')).toBe('ar');
  });
  it('moves a path between locales', () => {
    expect(localizePath('/', 'en')).toBe('/en');
    expect(localizePath('/motors/cars', 'en')).toBe('/en/motors/cars');
    expect(localizePath('/en/motors/cars', 'ar')).toBe('/motors/cars');
    expect(localizePath('/en', 'ar')).toBe('/');
    expect(stripLocale('/en/contact')).toBe('/contact');
  });
  it('picks a locale from Accept-Language by quality', () => {
    expect(localeFromAcceptLanguage('en-US,en;q=0.9')).toBe('en');
    expect(localeFromAcceptLanguage('fr-FR, en;q=0.5, ar;q=0.8')).toBe('ar');
    expect(localeFromAcceptLanguage('fr')).toBe('ar');
    expect(localeFromAcceptLanguage(undefined)).toBe('ar');
  });
});

describe('Arabic plurals', () => {
  const t = createTranslator('ar', ar).t;
  it('uses the six forms with Western digits', () => {
    expect(t('catalog:categories-count', { count: 0 })).toBe('لا توجد فئات');
    expect(t('catalog:categories-count', { count: 1 })).toBe('فئة واحدة');
    expect(t('catalog:categories-count', { count: 2 })).toBe('فئتان');
    expect(t('catalog:categories-count', { count: 5 })).toBe('5 فئات');
    expect(t('catalog:categories-count', { count: 11 })).toBe('11 فئة');
    expect(t('catalog:categories-count', { count: 100 })).toBe('100 فئة');
  });
  it('English uses one and other', () => {
    const te = createTranslator('en', en).t;
    expect(te('catalog:categories-count', { count: 1 })).toBe('1 category');
    expect(te('catalog:categories-count', { count: 12 })).toBe('12 categories');
  });
});
