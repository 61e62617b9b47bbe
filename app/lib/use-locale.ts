import { useLocation } from 'react-router';
import { type Locale, localeOfPath, localeTags, localizePath, localName } from '~/i18n/config.ts';

/** The page's locale and a helper that keeps links in it. */
export function useLocale() {
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  return {
    locale,
    tag: localeTags[locale],
    /** `/faq` → `/en/faq` on English pages. */
    to: (path: string) => localizePath(path, locale),
    /** The localized name of a record with name_ar / name_en. */
    name: (r: { name_ar: string; name_en: string }) => localName(locale, r),
  };
}

export type { Locale };
