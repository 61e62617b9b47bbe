// Bilingual account mails with the brand: one layout, wording from the `mail` catalogue.
import type { Locale } from '../../app/i18n/config.ts';
import { localeDirs, localeTags } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { MailMessage } from './index.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function layout(
  locale: Locale,
  to: string,
  kind: 'verify' | 'change' | 'reset' | 'taken',
  name: string,
  url: string,
  /** A second, smaller link under the button. */
  second?: string,
): MailMessage {
  const t = i18nFor(locale).t;
  const subject = t(`mail:${kind}.subject`);
  const greeting = t('mail:greeting', { name });
  const body = t(`mail:${kind}.body`);
  const button = t(`mail:${kind}.button`);
  const ignore = t(`mail:${kind}.ignore`);
  const secondLabel = second ? t(`mail:${kind}.second`) : '';
  const footer = t('mail:footer');
  const dir = localeDirs[locale];
  const html = `<!doctype html><html lang="${localeTags[locale]}" dir="${dir}"><body style="margin:0;background:#f4f6f5;font-family:Tahoma,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px" cellpadding="0" cellspacing="0">
<tr><td style="background:#2D9C68;border-radius:12px 12px 0 0;padding:16px 24px;color:#ffffff;font-size:22px;font-weight:bold;text-align:${dir === 'rtl' ? 'right' : 'left'}">${escapeHtml(t('common:site-name'))}</td></tr>
<tr><td dir="${dir}" style="padding:24px;font-size:16px;line-height:1.7;text-align:${dir === 'rtl' ? 'right' : 'left'}">
<p style="margin:0 0 12px">${escapeHtml(greeting)}</p><p style="margin:0 0 20px">${escapeHtml(body)}</p>
<p style="margin:0 0 20px;text-align:center"><a href="${escapeHtml(url)}" style="display:inline-block;background:#18794f;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:999px;font-weight:bold">${escapeHtml(button)}</a></p>
${second ? `<p style="margin:0 0 20px;text-align:center"><a href="${escapeHtml(second)}" style="color:#18794f">${escapeHtml(secondLabel)}</a></p>\n` : ''}<p style="margin:0 0 12px;font-size:13px;color:#52606d">${escapeHtml(ignore)}</p>
<p style="margin:0;font-size:12px;color:#52606d;word-break:break-all" dir="ltr">${escapeHtml(url)}</p>
</td></tr><tr><td style="padding:0 24px 20px;font-size:12px;color:#52606d;text-align:center">${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const more = second ? `${secondLabel}: ${second}\n\n` : '';
  const text = `${greeting}\n\n${body}\n\n${button}: ${url}\n\n${more}${ignore}\n\n${footer}\n`;
  return { to, subject, html, text };
}

export const verifyEmailMail = (locale: Locale, to: string, name: string, url: string) =>
  layout(locale, to, 'verify', name, url);
/** Confirms a new address for an existing account (profile → change email). */
export const changeEmailMail = (locale: Locale, to: string, name: string, url: string) =>
  layout(locale, to, 'change', name, url);
export const resetPasswordMail = (locale: Locale, to: string, name: string, url: string) =>
  layout(locale, to, 'reset', name, url);
/** To the owner of an address someone tried to register again: log in, or reset the password. */
export const addressTakenMail = (locale: Locale, to: string, name: string, loginUrl: string, resetUrl: string) =>
  layout(locale, to, 'taken', name, loginUrl, resetUrl);

/** A contact-form message for staff, in Arabic (the back office's first language), reply-to the sender. */
export function contactStaffMail(
  to: string,
  m: {
    id: number;
    name: string;
    email: string | null;
    phone: string | null;
    subject: string;
    body: string;
    locale: string;
  },
): MailMessage {
  const t = i18nFor('ar').t;
  const subjectLabel = t(`contact:subjects.${m.subject}`, { defaultValue: m.subject });
  const subject = t('mail:contact.subject', { id: m.id, subject: subjectLabel });
  const lines = [
    `${t('contact:labels.name')}: ${m.name}`,
    `${t('contact:labels.email')}: ${m.email ?? '—'}`,
    `${t('contact:labels.phone')}: ${m.phone ?? '—'}`,
    `${t('contact:labels.subject')}: ${subjectLabel}`,
    `${t('mail:contact.language')}: ${m.locale === 'en' ? 'English' : 'العربية'}`,
  ];
  const text = `${lines.join('\n')}\n\n${m.body}\n`;
  const html = `<!doctype html><html lang="${localeTags.ar}" dir="rtl"><body style="font-family:Tahoma,Arial,sans-serif;line-height:1.7">
<h2 style="color:#18794f">${escapeHtml(subject)}</h2>
<p>${lines.map((l) => `<bdi>${escapeHtml(l)}</bdi>`).join('<br>')}</p>
<div dir="auto" style="white-space:pre-wrap;border-inline-start:4px solid #2D9C68;padding-inline-start:12px">${escapeHtml(m.body)}</div>
</body></html>`;
  return { to, subject, text, html, replyTo: m.email ?? undefined };
}
