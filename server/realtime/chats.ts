// Chats, live (docs/realtime.md, "Channels and events"): every committed chat change of this
// process (server/domain/chats/events.ts, told after commit) is published
// - on the chat's presence channel `presence-chats.{id}`: the new or changed message, or how far a
//   participant read (read receipts), for the open threads of both sides;
// - on each participant's own channel `private-users.{id}`: that a message arrived or the chat was
//   read, with their count of chats holding unread messages read after the commit (the header's
//   counter, the list of chats), a member's counts in the order of the changes.
import {
  CHAT_MESSAGE,
  CHAT_READ,
  type ChatMessageEvent,
  type ChatReadEvent,
  userChannel,
} from '../../app/lib/realtime/events.ts';
import {
  chatChannel,
  THREAD_MESSAGE,
  THREAD_MESSAGE_UPDATED,
  THREAD_READ,
  type ThreadMessageEvent,
  type ThreadReadEvent,
} from '../../app/lib/realtime/presence.ts';
import type { DB } from '../db/index.ts';
import { countUnreadChats } from '../domain/chats/chats.ts';
import { onChatChange } from '../domain/chats/events.ts';
import type { Logger } from '../logger.ts';
import { inOrder } from './in-order.ts';
import type { Publisher } from './publish.ts';

/** Publishes this process's chat changes through `publisher`; returns the unsubscribe. */
export function relayChats(db: DB, publisher: Pick<Publisher, 'trigger'>, logger: Logger): () => void {
  // Each member's counters in the order of the changes (./in-order.ts); the threads' events are
  // published at once, in the order the changes are told.
  const queue = inOrder();
  return onChatChange((change) => {
    // The change is committed and shown at the next page load (or the next catch-up) whatever happens here.
    const warn = (err: unknown) => logger.warn({ err, kind: change.kind }, 'chat change not published live');
    const thread = chatChannel(change.chatId);
    const counter = (userId: string, publish: (unread: number) => Promise<void>) =>
      queue(userId, async () => publish(await countUnreadChats(db, userId))).catch(warn);
    if (change.kind === 'message') {
      publisher.trigger(thread, THREAD_MESSAGE, { message: change.message } satisfies ThreadMessageEvent).catch(warn);
      for (const userId of [change.senderId, ...(change.recipientId ? [change.recipientId] : [])]) {
        void counter(userId, (unread) => {
          const event: ChatMessageEvent = {
            chat_id: change.chatId,
            message_id: change.message.id,
            from_me: userId === change.senderId,
            unread,
          };
          return publisher.trigger(userChannel(userId), CHAT_MESSAGE, event);
        });
      }
    } else if (change.kind === 'message-updated') {
      publisher
        .trigger(thread, THREAD_MESSAGE_UPDATED, { message: change.message } satisfies ThreadMessageEvent)
        .catch(warn);
    } else {
      const read: ThreadReadEvent = { user_id: change.readerId, last_read_message_id: change.lastReadId };
      publisher.trigger(thread, THREAD_READ, read).catch(warn);
      void counter(change.readerId, (unread) => {
        const event: ChatReadEvent = { chat_id: change.chatId, unread };
        return publisher.trigger(userChannel(change.readerId), CHAT_READ, event);
      });
    }
  });
}
