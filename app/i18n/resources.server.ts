// Every catalogue of every locale, for the server (rendering, API messages, mails).
import type { i18n, Resource } from 'i18next';
import { type Locale, locales } from './config.ts';
import { createI18n } from './instance.ts';

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' });

export const resources: Resource = {};
for (const [file, data] of Object.entries(files)) {
  const [, locale, ns] = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file) ?? [];
  if (!locale || !ns) continue;
  resources[locale] ??= {};
  resources[locale][ns] = data as Resource[string][string];
}

const instances = new Map<Locale, i18n>();
for (const l of locales) instances.set(l, createI18n(l, resources));

/** The shared server-side instance of a locale (read-only use: t()). */
export function i18nFor(locale: Locale): i18n {
  return instances.get(locale) as i18n;
}

/** Only one locale's catalogues, to send to the browser. */
export function resourcesFor(locale: Locale): Resource {
  return { [locale]: resources[locale] };
}
