// Every catalogue of every locale, for the server (rendering, API messages, mails).

import { type Locale, locales } from './config.ts';
import { type Catalogue, type Catalogues, createTranslator, type Translator } from './translator.ts';

const files = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });

const resources: Record<string, Record<string, Catalogue>> = {};
for (const [file, data] of Object.entries(files)) {
  const [, locale, ns] = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file) ?? [];
  if (!locale || !ns) continue;
  resources[locale] ??= {};
  resources[locale][ns] = data;
}

const translators = new Map<Locale, Translator>(
  locales.map((l) => [l, createTranslator(l, (resources[l] ?? {}) as Catalogues)]),
);

/** The shared server-side translator of a locale (read-only use: t()). */
export function i18nFor(locale: Locale): Translator {
  return translators.get(locale) as Translator;
}
