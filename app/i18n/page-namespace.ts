// The catalogue every page downloads before it hydrates (app/i18n/bundle-{ar,en}.ts, ADR 0004;
// docs/performance.md, "First-load JavaScript") leaves out what the browser does not need on every
// page: namespaces only the server uses, and namespaces only one page uses, which that page's route
// module imports and adds to the browser's i18next instance when it first renders. The server has
// every namespace (app/i18n/resources.server.ts). The bundles' globs name the same files
// (tests/unit/i18n-catalogues.test.ts checks them).
import { useContext } from 'react';
import { I18nContext } from 'react-i18next';
import { isLocale, type Locale, type Namespace } from './config.ts';

/** Only the server translates with these: mails are rendered there (server/mail/templates.ts). */
export const SERVER_NAMESPACES: readonly Namespace[] = ['mail'];

/** Each used by one page, which adds it itself (`usePageNamespace`). */
export const PAGE_NAMESPACES: readonly Namespace[] = ['notifications'];

/** Makes `ns` available in the page's language before the page translates with it. */
export function usePageNamespace(ns: Namespace, catalogues: Record<Locale, Record<string, unknown>>): void {
  const { i18n } = useContext(I18nContext);
  const locale = i18n.language;
  if (isLocale(locale) && !i18n.hasResourceBundle(locale, ns)) i18n.addResourceBundle(locale, ns, catalogues[locale]);
}
