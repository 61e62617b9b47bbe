// A notification's mail, when its `notification-mail` job runs (plans: ./plans.ts): checked then —
// still unread if the plan asks, a confirmed address of the member's own (not a phone sign-up's
// placeholder), email wanted for the type — rendered in the member's language
// (server/mail/notification-templates.ts) and handed to the outbox as a `send-mail` job. Mails of
// a member that are not notification rows (a chat's unread reminder, server/domain/chats/reminders.ts)
// go the same way: `mailRecipient`, then `sendNotice`.
import { isLocale, type Locale, localizePath } from '../../../app/i18n/config.ts';
import { dates } from '../../../app/lib/intl.ts';
import { isNotificationType, type NotificationType } from '../../../app/lib/validation/profile.ts';
import { receivesMail } from '../../auth/placeholder-email.ts';
import type { DB } from '../../db/index.ts';
import { toJson, toNumber } from '../../db/values.ts';
import { enqueue } from '../../jobs/registry.ts';
import { mailTranslator } from '../../mail/catalogues.ts';
import { type MailFoot, mailPrice, type NoticeContent, noticeMail } from '../../mail/notification-templates.ts';
import { mailJob } from '../../mail/outbox.ts';
import { wantsNotification } from '../profile.ts';
import type { UnreadCheckKind } from './plans.ts';
import { unsubscribeToken } from './unsubscribe.ts';

/** What links in mails need: the site's public origin and the secret that signs unsubscribe tokens. */
export interface MailLinks {
  origin: string;
  secret: string;
}

export interface NotificationRow {
  id: number;
  user_id: string;
  type: string;
  data: Record<string, unknown>;
  read_at: unknown;
}

/** Whether what a notification tells is still unread, by check (./plans.ts UNREAD_CHECK_KINDS). */
export const UNREAD_CHECKS: Record<UnreadCheckKind, (db: DB, n: NotificationRow) => Promise<boolean>> = {
  /** The notification itself is unread (marked read on /notifications, or by the feature that shows it). */
  notification: async (_db, n) => n.read_at === null,
};

/** A member a mail can go to: their confirmed address, their name, their language. */
export interface MailRecipient {
  userId: string;
  email: string;
  name: string;
  locale: Locale;
}

/**
 * Who a mail goes to, if mail reaches them — a confirmed address of their own (not a phone
 * sign-up's placeholder), not banned — and they want `type` by email; null otherwise.
 */
export async function mailRecipient(db: DB, userId: string, type: NotificationType): Promise<MailRecipient | null> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'email_verified', 'name', 'locale', 'banned_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || user.banned_at !== null || !receivesMail(user.email, user.email_verified)) return null;
  if (!(await wantsNotification(db, userId, type, 'email'))) return null;
  return { userId, email: user.email, name: user.name, locale: isLocale(user.locale) ? user.locale : 'ar' };
}

/** The foot of a member's mail of `type`: its unsubscribe links (signed) and the settings. */
export function mailFoot(links: MailLinks, userId: string, type: NotificationType, locale: Locale): MailFoot {
  const token = unsubscribeToken(links.secret, userId, type);
  return {
    unsubscribePage: `${links.origin}${localizePath(`/unsubscribe/${token}`, locale)}`,
    oneClick: `${links.origin}/api/unsubscribe/${token}`,
    type,
    settings: `${links.origin}${localizePath('/profile', locale)}#notifications`,
  };
}

/** A site path given in a notification's data (`path`), when it is one of ours. */
function localPath(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && value.length < 2000
    ? value
    : null;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The member's own page of an ad of theirs, or null when it is gone or no longer theirs. */
async function ownAdPath(db: DB, userId: string, adId: unknown): Promise<string | null> {
  if (typeof adId !== 'number' || !Number.isInteger(adId)) return null;
  const ad = await db
    .selectFrom('ads')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .select(['ads.id', 'ads.slug', 'taxonomies.slug as taxonomy_slug', 'categories.slug as category_slug'])
    .where('ads.id', '=', adId)
    .where('ads.user_id', '=', userId)
    .where('ads.status', '!=', 'deleted')
    .executeTakeFirst();
  return ad ? `/profile/posts/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}` : null;
}

/** What a member's mail says and where its button leads (a path of the site, localised when sent). */
export type NoticeOf = Omit<NoticeContent, 'url'> & { path: string };

/** What the mail of a notification says and where its button leads. */
async function contentOf(db: DB, n: NotificationRow & { type: NotificationType }, locale: Locale): Promise<NoticeOf> {
  const d = n.data;
  const title = text(d.title);
  const change = d.change === true;
  const base = { values: { title }, quote: title || null, lines: [] as string[] };
  switch (n.type) {
    case 'ad-approved':
    case 'ad-rejected':
    case 'ad-expiring':
    case 'ad-expired': {
      const kind = (n.type === 'ad-approved' || n.type === 'ad-rejected') && change ? `${n.type}-change` : n.type;
      const lines: string[] = [];
      if (text(d.reason)) lines.push(mailTranslatorLine(locale, 'notice.reason', { reason: text(d.reason) }));
      const expires = text(d.expires_at);
      const values = { title, date: expires ? dates(locale).date(expires) : '' };
      const path = (await ownAdPath(db, n.user_id, d.ad_id)) ?? '/notifications';
      return { ...base, kind, values, lines, button: 'own-ad', path };
    }
    case 'saved-search-match': {
      const searches = Array.isArray(d.searches) ? (d.searches as { name?: unknown }[]) : [];
      const name = searches
        .map((s) => text(s.name))
        .filter(Boolean)
        .join(locale === 'ar' ? '، ' : ', ');
      const lines: string[] = [];
      if (typeof d.price === 'number') {
        lines.push(mailTranslatorLine(locale, 'notice.price', { price: mailPrice(locale, d.price, text(d.currency)) }));
      }
      return {
        ...base,
        kind: n.type,
        values: { title, name },
        lines,
        button: 'ad',
        path: localPath(d.path) ?? '/searches',
      };
    }
    case 'favorite-price-drop':
    case 'favorite-sold': {
      const lines: string[] = [];
      if (typeof d.price === 'number') {
        lines.push(mailTranslatorLine(locale, 'notice.price', { price: mailPrice(locale, d.price, text(d.currency)) }));
      }
      return { ...base, kind: n.type, lines, button: 'ad', path: localPath(d.path) ?? '/favorites' };
    }
    default:
      return { ...base, kind: n.type, button: 'site', path: localPath(d.path) ?? '/notifications' };
  }
}

const mailTranslatorLine = (locale: Locale, key: string, values: Record<string, string>) =>
  mailTranslator(locale).t(key, values);

export type MailOutcome = 'sent' | 'gone' | 'read' | 'not-wanted';

/** The `notification-mail` job: the mail of one notification, if it is still due. */
export async function sendNotificationMail(
  db: DB,
  links: MailLinks,
  job: { notificationId: number; unlessRead?: UnreadCheckKind },
): Promise<MailOutcome> {
  const row = await db
    .selectFrom('notifications')
    .select(['id', 'user_id', 'type', 'data', 'read_at'])
    .where('id', '=', job.notificationId)
    .executeTakeFirst();
  if (!row || !isNotificationType(row.type)) return 'gone';
  const n = { ...row, id: toNumber(row.id), type: row.type, data: toJson<Record<string, unknown>>(row.data, {}) };
  if (job.unlessRead && !(await UNREAD_CHECKS[job.unlessRead](db, n))) return 'read';
  const to = await mailRecipient(db, n.user_id, n.type);
  if (!to) return 'not-wanted';
  await sendNotice(db, links, to, n.type, await contentOf(db, n, to.locale));
  return 'sent';
}

/**
 * Renders a member's mail of `type` in their language — the layout, the button to `content.path`,
 * the foot's signed unsubscribe link and the RFC 8058 headers for that type — and hands it to the
 * outbox (a `send-mail` job). `to` comes from `mailRecipient`, which said the member takes it.
 */
export async function sendNotice(
  db: DB,
  links: MailLinks,
  to: MailRecipient,
  type: NotificationType,
  content: NoticeOf,
): Promise<void> {
  const url = `${links.origin}${localizePath(content.path, to.locale)}`;
  const message = noticeMail(
    to.locale,
    to.email,
    to.name,
    { ...content, url },
    mailFoot(links, to.userId, type, to.locale),
  );
  await enqueue(db, 'send-mail', mailJob('notification', message));
}
