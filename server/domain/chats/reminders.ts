// The email for unread chat messages (docs/product/chats.md, "Emails"). Chat messages are not
// notifications: the chats have their own unread counters, so a notification per message would
// count each one twice. Instead a stored message plans, in its own transaction, a reminder for its
// recipient — a `chat-unread-reminder` job CHAT_REMINDER_DELAY_MS later, at most one pending per
// chat and recipient (the job's unique key), so a burst of messages is one mail. When it runs it
// mails the recipient once, in their language — who wrote, about which ad, how many messages are
// unread, a button to the thread — unless by then they read up to that message, the chat is blocked
// or closed for them, they do not want `chat-message` emails (their settings; off by default) or
// mail does not reach them. Rules, layout, unsubscribe links and sending are the notification
// mails' own (server/domain/notification-mail/send.ts).
import type { DB } from '../../db/index.ts';
import { toIso } from '../../db/values.ts';
import { releaseUniqueKey } from '../../jobs/queue.ts';
import { enqueue } from '../../jobs/registry.ts';
import { NotFound } from '../errors.ts';
import { CHAT_REMINDER_DELAY_MS } from '../notification-mail/plans.ts';
import { type MailLinks, mailRecipient, sendNotice } from '../notification-mail/send.ts';
import { chatState } from './chats.ts';

export interface ChatReminder {
  chatId: number;
  /** The recipient. */
  userId: string;
  /** The message that planned it: the reminder is off once the recipient read up to it. */
  messageId: number;
}

/** The one key of a pending reminder of a chat for a member. */
const reminderKey = (chatId: number, userId: string) => `chat-unread:${chatId}:${userId}`;

/**
 * Plans the reminder of message `messageId` for its recipient, in the transaction that stores it
 * (`db` is that transaction), CHAT_REMINDER_DELAY_MS after `at`; nothing when one is pending for
 * this chat and recipient already (it will count this message too).
 */
export async function planChatReminder(db: DB, reminder: ChatReminder, at: Date): Promise<void> {
  await enqueue(db, 'chat-unread-reminder', reminder, {
    runAt: at.getTime() + CHAT_REMINDER_DELAY_MS,
    uniqueKey: reminderKey(reminder.chatId, reminder.userId),
  });
}

export type ReminderOutcome = 'sent' | 'gone' | 'closed' | 'not-wanted' | 'read' | 'later';

/**
 * The `chat-unread-reminder` job (`jobId`: its own id). Its key is let go first, so a message
 * stored from now on plans the next reminder. 'read' when the recipient read up to the message —
 * and when messages came after it unread, the reminder of the first of them is planned ('later').
 */
export async function sendChatReminder(
  db: DB,
  links: MailLinks,
  reminder: ChatReminder,
  jobId: number,
): Promise<ReminderOutcome> {
  await releaseUniqueKey(db, jobId);
  let state: Awaited<ReturnType<typeof chatState>>;
  try {
    state = await chatState(db, reminder.userId, reminder.chatId);
  } catch (error) {
    if (error instanceof NotFound) return 'gone';
    throw error;
  }
  // Blocked either way, the ad deleted, the writer gone or banned: nothing to answer.
  if (state.reply !== 'open' || !state.other) return 'closed';
  const to = await mailRecipient(db, reminder.userId, 'chat-message');
  if (!to) return 'not-wanted';
  const unread = await db
    .selectFrom('chat_messages')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('id').as('first')])
    .where('chat_id', '=', state.id)
    .where('id', '>', state.me.last_read_message_id)
    .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_id', '!=', reminder.userId)]))
    .executeTakeFirst();
  const count = Number(unread?.n ?? 0);
  if (state.me.last_read_message_id >= reminder.messageId) {
    if (count === 0) return 'read';
    // Read up to the message, but newer ones wait: the first of them gets its own reminder.
    const first = await db
      .selectFrom('chat_messages')
      .select(['id', 'created_at'])
      .where('id', '=', Number(unread?.first))
      .executeTakeFirstOrThrow();
    await planChatReminder(
      db,
      { chatId: state.id, userId: reminder.userId, messageId: Number(first.id) },
      new Date(toIso(first.created_at)),
    );
    return 'later';
  }
  await sendNotice(db, links, to, 'chat-message', {
    kind: 'chat-message',
    values: { name: state.other.name, title: state.ad.title },
    count,
    quote: state.ad.title,
    lines: [],
    button: 'chat',
    path: `/chats/${state.id}`,
  });
  return 'sent';
}
