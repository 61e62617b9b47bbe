// The words of our text messages, from the `auth` catalogue. Kept short: one SMS segment in
// Arabic is 70 characters, and the code comes first so phones can offer to fill it in.
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';

export function otpSms(locale: Locale, kind: 'verify' | 'reset', code: string, minutes: number): string {
  return i18nFor(locale).t(`auth:sms.${kind}`, { code, count: minutes });
}

/** To the owner of a confirmed number someone tried to register or add again. */
export function numberTakenSms(locale: Locale, url: string): string {
  return i18nFor(locale).t('auth:sms.taken', { url });
}
