import i18next, { type i18n, type Resource } from 'i18next';
import { numberFormat } from '~/lib/intl.ts';
import { type Locale, localeTags, namespaces } from './config.ts';

/** A ready i18next instance for one locale (synchronous: resources are passed in). */
export function createI18n(locale: Locale, resources: Resource): i18n {
  const instance = i18next.createInstance();
  instance.init({
    lng: locale,
    fallbackLng: false,
    supportedLngs: ['ar', 'en'],
    ns: [...namespaces],
    defaultNS: 'common',
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  // Numbers through Intl with the product's locale tags (ar-EG: Arabic-Indic digits).
  instance.services.formatter?.add('number', (value, lng) =>
    numberFormat(localeTags[(lng as Locale) ?? locale] ?? localeTags[locale]).format(value),
  );
  return instance;
}
