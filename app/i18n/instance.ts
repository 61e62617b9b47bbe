import i18next, { type i18n, type Resource } from 'i18next';
import { numberFormat } from '~/lib/intl.ts';
import { isLocale, type Locale, namespaces } from './config.ts';

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
  // `{{count, number}}` through the site's formatter (app/lib/intl.ts): Western digits in both languages.
  instance.services.formatter?.add('number', (value, lng) => numberFormat(isLocale(lng) ? lng : locale).format(value));
  return instance;
}
