// The wording of notification mails for code that runs outside the web build: the job worker
// (`npm run worker`, plain Node) renders these mails when their jobs run, so their catalogues are
// imported as JSON modules (Node and Vite both read `with { type: 'json' }`), not through the web
// build's `import.meta.glob` (app/i18n/resources.server.ts). The same files, the same translator.
import type { Locale } from '../../app/i18n/config.ts';
import arCommon from '../../app/i18n/locales/ar/common.json' with { type: 'json' };
import arMail from '../../app/i18n/locales/ar/mail.json' with { type: 'json' };
import arProfile from '../../app/i18n/locales/ar/profile.json' with { type: 'json' };
import enCommon from '../../app/i18n/locales/en/common.json' with { type: 'json' };
import enMail from '../../app/i18n/locales/en/mail.json' with { type: 'json' };
import enProfile from '../../app/i18n/locales/en/profile.json' with { type: 'json' };
import { type Catalogues, createTranslator, type Translator } from '../../app/i18n/translator.ts';

const catalogues: Record<Locale, Catalogues> = {
  ar: { common: arCommon, mail: arMail, profile: arProfile },
  en: { common: enCommon, mail: enMail, profile: enProfile },
};

const translators = new Map<Locale, Translator>();

/** The mail translator of a language (namespaces `mail`, `common`, `profile`; default `mail`). */
export function mailTranslator(locale: Locale): Translator {
  let t = translators.get(locale);
  if (!t) {
    t = createTranslator(locale, catalogues[locale], 'mail');
    translators.set(locale, t);
  }
  return t;
}
