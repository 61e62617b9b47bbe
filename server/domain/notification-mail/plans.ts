// When a notification is also mailed (docs/product/alerts.md, "Emails"). Every notification written
// by `notify` (server/domain/notifications.ts) gets a `notification-mail` job in its transaction,
// run at once or after a delay; when it runs it sends the mail only if the member still wants it
// (their settings, a confirmed address of their own) and, for a plan with `unlessRead`, only if what
// it tells is still unread. This is the one mechanism for "mail after a delay only if still unread".
//
// A feature picks a plan for its notifications here (EMAIL_PLANS), or per call:
//   notify(tx, userId, 'chat-message', data, { email: { delayMs: 15 * MINUTE, unlessRead: 'chat-message' } })
// and, for a check of its own, names it in UNREAD_CHECK_KINDS and writes it in UNREAD_CHECKS
// (./send.ts): a function of the notification row that says whether it is still unread. Chats: the
// message's notification is written with the message (`notify` in the transaction that stores it);
// the default plan below mails it after 15 minutes unless the notification was marked read — mark
// it read when the member reads the thread, or add a 'chat-message' check that reads the message's
// own read time from `data.message_id`.
import type { NotificationType } from '../../../app/lib/validation/profile.ts';

export const MINUTE = 60_000;

/** Checks a delayed mail can be sent under: each a predicate of ./send.ts `UNREAD_CHECKS`. */
export const UNREAD_CHECK_KINDS = ['notification'] as const;
export type UnreadCheckKind = (typeof UNREAD_CHECK_KINDS)[number];

/** No mail; or a mail after `delayMs`, when `unlessRead` still says unread then. */
export type EmailPlan = 'none' | { delayMs: number; unlessRead?: UnreadCheckKind };

const AT_ONCE: EmailPlan = { delayMs: 0 };

/**
 * The plan of each type. What a member may already have seen live on the site (their ad approved
 * while they wait for it, a chat message) is mailed a little later and only while still unread;
 * what happens while nobody is looking (expiry, a new ad for a saved search, favorites) at once.
 */
export const EMAIL_PLANS: Record<NotificationType, EmailPlan> = {
  'chat-message': { delayMs: 15 * MINUTE, unlessRead: 'notification' },
  'ad-approved': { delayMs: 10 * MINUTE, unlessRead: 'notification' },
  'ad-rejected': { delayMs: 10 * MINUTE, unlessRead: 'notification' },
  'ad-expiring': AT_ONCE,
  'ad-expired': AT_ONCE,
  'saved-search-match': AT_ONCE,
  'favorite-price-drop': AT_ONCE,
  'favorite-sold': AT_ONCE,
  'package-expiring': AT_ONCE,
  'report-resolved': AT_ONCE,
  system: AT_ONCE,
};
