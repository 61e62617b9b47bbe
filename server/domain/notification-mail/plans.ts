// When a notification is also mailed (docs/product/alerts.md, "Emails"). Every notification written
// by `notify` (server/domain/notifications.ts) gets a `notification-mail` job in its transaction,
// run at once or after a delay; when it runs it sends the mail only if the member still wants it
// (their settings, a confirmed address of their own) and, for a plan with `unlessRead`, only if what
// it tells is still unread.
//
// A feature picks a plan for its notifications here (EMAIL_PLANS), or per call:
//   notify(tx, userId, 'ad-approved', data, { email: { delayMs: 10 * MINUTE, unlessRead: 'notification' } })
// and, for a check of its own, names it in UNREAD_CHECK_KINDS and writes it in UNREAD_CHECKS
// (./send.ts): a function of the notification row that says whether it is still unread.
//
// Chat messages are not notifications (docs/product/chats.md, "Emails"): a chat has its own read
// state and counters, so its mail is a reminder of its own — a `chat-unread-reminder` job planned
// with the message (server/domain/chats/reminders.ts), CHAT_REMINDER_DELAY_MS later, sent through
// the same recipient rules, layout and unsubscribe links (./send.ts `sendNotice`).
import type { NotificationType } from '../../../app/lib/validation/profile.ts';

export const MINUTE = 60_000;

/** Checks a delayed mail can be sent under: each a predicate of ./send.ts `UNREAD_CHECKS`. */
export const UNREAD_CHECK_KINDS = ['notification'] as const;
export type UnreadCheckKind = (typeof UNREAD_CHECK_KINDS)[number];

/** No mail; or a mail after `delayMs`, when `unlessRead` still says unread then. */
export type EmailPlan = 'none' | { delayMs: number; unlessRead?: UnreadCheckKind };

const AT_ONCE: EmailPlan = { delayMs: 0 };

/** A chat's unread messages are mailed this long after the message that planned the reminder. */
export const CHAT_REMINDER_DELAY_MS = 15 * MINUTE;

/**
 * The plan of each type. What a member may already have seen live on the site (their ad approved
 * while they wait for it) is mailed a little later and only while still unread;
 * what happens while nobody is looking (expiry, a new ad for a saved search, favorites) at once.
 */
export const EMAIL_PLANS: Record<NotificationType, EmailPlan> = {
  // Never written as a notification: chats mail their own reminder (CHAT_REMINDER_DELAY_MS).
  'chat-message': 'none',
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
