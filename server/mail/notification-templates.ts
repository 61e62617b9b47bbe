// Notification mails (docs/product/alerts.md, "Emails"): one per notification the member wants by
// email, a chat's unread reminder (docs/product/chats.md, "Emails"), and the daily digest of saved
// searches; in the member's language, with the brand, a button to the subject, and at the foot a
// link to stop that kind of mail — also given to mail programs as RFC 8058 one-click unsubscribe
// headers. Wording: the `mail` catalogue, read through
// ./catalogues.ts so the job worker can render them.
import { type Locale, localeDirs, localeTags } from '../../app/i18n/config.ts';
import { numberFormat } from '../../app/lib/intl.ts';
import { mailTranslator } from './catalogues.ts';
import type { MailMessage } from './index.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** Where a mail's foot leads: stopping this kind of mail (one click) and the settings. */
export interface MailFoot {
  /** The page that confirms stopping this kind of mail (GET shows it, its button stops it). */
  unsubscribePage: string;
  /** The RFC 8058 one-click address (a POST stops it). */
  oneClick: string;
  /** The notification type this mail is of (its name is said in the link). */
  type: string;
  /** The member's notification settings. */
  settings: string;
}

interface Block {
  /** User-written text (a title, a saved search's name): rendered in its own direction. */
  quote?: string;
  text?: string;
  link?: { label: string; url: string };
}

function layout(
  locale: Locale,
  to: string,
  subject: string,
  greeting: string,
  blocks: Block[],
  button: { label: string; url: string },
  foot: MailFoot,
): MailMessage {
  const t = mailTranslator(locale).t;
  const dir = localeDirs[locale];
  const align = dir === 'rtl' ? 'right' : 'left';
  const kind = t(`profile:notifications.types.${foot.type}`, { defaultValue: foot.type });
  const stop = t('notice.unsubscribe', { kind });
  const settings = t('notice.settings');
  const footer = t('notice.footer');
  const html = `<!doctype html><html lang="${localeTags[locale]}" dir="${dir}"><body style="margin:0;background:#f4f6f5;font-family:Tahoma,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px" cellpadding="0" cellspacing="0">
<tr><td style="background:#2D9C68;border-radius:12px 12px 0 0;padding:16px 24px;color:#ffffff;font-size:22px;font-weight:bold;text-align:${align}">${escapeHtml(t('common:site-name'))}</td></tr>
<tr><td dir="${dir}" style="padding:24px;font-size:16px;line-height:1.7;text-align:${align}">
<p style="margin:0 0 12px">${escapeHtml(greeting)}</p>
${blocks
  .map((b) =>
    b.quote !== undefined
      ? `<p dir="auto" style="margin:0 0 12px;font-weight:bold;border-inline-start:4px solid #2D9C68;padding-inline-start:12px">${escapeHtml(b.quote)}</p>`
      : b.link
        ? `<p style="margin:0 0 8px"><a href="${escapeHtml(b.link.url)}" style="color:#18794f">${escapeHtml(b.link.label)}</a></p>`
        : `<p style="margin:0 0 12px">${escapeHtml(b.text ?? '')}</p>`,
  )
  .join('\n')}
<p style="margin:8px 0 20px;text-align:center"><a href="${escapeHtml(button.url)}" style="display:inline-block;background:#18794f;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:999px;font-weight:bold">${escapeHtml(button.label)}</a></p>
</td></tr><tr><td dir="${dir}" style="padding:0 24px 20px;font-size:12px;color:#52606d;text-align:center">${escapeHtml(footer)}<br>
<a href="${escapeHtml(foot.unsubscribePage)}" style="color:#52606d">${escapeHtml(stop)}</a> · <a href="${escapeHtml(foot.settings)}" style="color:#52606d">${escapeHtml(settings)}</a></td></tr>
</table></td></tr></table></body></html>`;
  const lines = blocks.map((b) => (b.link ? `${b.link.label}: ${b.link.url}` : (b.quote ?? b.text ?? '')));
  const text = `${greeting}\n\n${lines.join('\n\n')}\n\n${button.label}: ${button.url}\n\n${footer}\n${stop}: ${foot.unsubscribePage}\n${settings}: ${foot.settings}\n`;
  return {
    to,
    subject,
    html,
    text,
    headers: {
      'List-Unsubscribe': `<${foot.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** An amount with its currency in the language ("45,000 د.ل"). */
export function mailPrice(locale: Locale, price: number, currency: string): string {
  const t = mailTranslator(locale).t;
  return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(price)} ${t(`currency.${currency}`, { defaultValue: currency })}`;
}

export interface NoticeContent {
  /** The key under `notice.kinds` (the type, or a variant such as `ad-approved-change`). */
  kind: string;
  /** Values of the subject and body (`title`, `name`, `date`). */
  values: Record<string, string>;
  /** A number the subject and body say, in the language's plural forms (unread messages). */
  count?: number;
  /** The subject's own words (an ad's title), shown quoted. */
  quote: string | null;
  /** Further lines (a reason, a price). */
  lines: string[];
  /** The key under `notice.buttons`, and where it leads. */
  button: string;
  url: string;
}

/** The mail of one notification, or of a chat's unread messages. */
export function noticeMail(locale: Locale, to: string, name: string, c: NoticeContent, foot: MailFoot): MailMessage {
  const t = mailTranslator(locale).t;
  const values = c.count === undefined ? c.values : { ...c.values, count: c.count };
  const subject = t(`notice.kinds.${c.kind}.subject`, values);
  const blocks: Block[] = [{ text: t(`notice.kinds.${c.kind}.body`, values) }];
  if (c.quote) blocks.push({ quote: c.quote });
  for (const line of c.lines) blocks.push({ text: line });
  return layout(
    locale,
    to,
    subject,
    t('greeting', { name }),
    blocks,
    { label: t(`notice.buttons.${c.button}`), url: c.url },
    foot,
  );
}

/** The day's digest of a member's daily saved searches: each with its count of new ads and a link. */
export function digestMail(
  locale: Locale,
  to: string,
  name: string,
  items: { name: string; count: number; url: string }[],
  url: string,
  foot: MailFoot,
): MailMessage {
  const t = mailTranslator(locale).t;
  const total = items.reduce((n, i) => n + i.count, 0);
  const blocks: Block[] = [
    { text: t('digest.body') },
    ...items.map((i) => ({ link: { label: t('digest.line', { count: i.count, name: i.name }), url: i.url } })),
    { text: t('digest.manage') },
  ];
  return layout(
    locale,
    to,
    t('digest.subject', { count: total }),
    t('greeting', { name }),
    blocks,
    { label: t('digest.button'), url },
    foot,
  );
}
