// Locales of the product (docs/product/site.md): Arabic is the default and has no path prefix;
// English lives under /en.
export const locales = ['ar', 'en'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'ar';

/** The pages' `lang`: Libyan Arabic and American English (numbers and dates: app/lib/intl.ts). */
export const localeTags: Record<Locale, string> = { ar: 'ar-LY', en: 'en-US' };
export const localeDirs: Record<Locale, 'rtl' | 'ltr'> = { ar: 'rtl', en: 'ltr' };
export const namespaces = [
  'common',
  'home',
  'catalog',
  'contact',
  'auth',
  'profile',
  'ads',
  'mail',
  'errors',
  'validation',
  'admin',
  'search',
  'map',
  'notifications',
  'placing',
  'alerts',
  'chats',
  'favorites',
] as const;
export type Namespace = (typeof namespaces)[number];

/**
 * What a page's scripts carry of the catalogue (docs/performance.md, "First-load JavaScript"): the
 * namespaces every part of the site may use, in one chunk per language (./bundle-ar.ts,
 * ./bundle-en.ts); the namespaces of the account, profile, back-office, contact, notifications, chat and favorites pages, loaded
 * when a component asks for them (./area-catalogues.ts); `mail` never reaches the browser.
 * tests/unit/i18n-areas.test.tsx checks the split and that every use of an area's keys waits for them.
 */
export const pageNamespaces = ['common', 'home', 'catalog', 'ads', 'search', 'map'] as const;
export const areaNamespaces = [
  'auth',
  'profile',
  'admin',
  'contact',
  'notifications',
  'placing',
  'errors',
  'validation',
  'alerts',
  'chats',
  'favorites',
] as const;
export type AreaNamespace = (typeof areaNamespaces)[number];

export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const isLocale = (v: unknown): v is Locale => v === 'ar' || v === 'en';

/** The locale a path is in: `/en` and `/en/…` are English, everything else Arabic. */
export function localeOfPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'ar';
}

/** The path without its locale prefix: `/en/faq` → `/faq`, `/en` → `/`. */
export function stripLocale(pathname: string): string {
  if (pathname === '/en') return '/';
  if (pathname.startsWith('/en/')) return pathname.slice(3);
  return pathname;
}

/** A path in the given locale: `localizePath('/faq', 'en')` → `/en/faq`. */
export function localizePath(pathname: string, locale: Locale): string {
  const bare = stripLocale(pathname);
  if (locale === defaultLocale) return bare;
  return bare === '/' ? '/en' : `/en${bare}`;
}

/** Picks a supported locale from an Accept-Language header; Arabic when nothing matches. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return defaultLocale;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (isLocale(base)) return base;
  }
  return defaultLocale;
}

/** The name of a bilingual record (name_ar / name_en) in a locale. */
export const localName = (locale: Locale, r: { name_ar: string; name_en: string }) =>
  locale === 'ar' ? r.name_ar : r.name_en;
