// Chats, live (docs/realtime.md, "Channels and events"): every committed chat change of this
// process (server/domain/chats/events.ts, told after commit) is published
// - on the chat's presence channel `presence-chats.{id}`: the new or changed message, or how far a
//   participant read (read receipts), for the open threads of both sides;
// - on each participant's own channel `private-users.{id}`: that a message arrived or the chat was
//   read, with their count of chats holding unread messages read after the commit (the header's
//   counter, the list of chats).
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
import type { Publisher } from './publish.ts';

/** Publishes this process's chat changes through `publisher`; returns the unsubscribe. */
export function relayChats(db: DB, publisher: Pick<Publisher, 'trigger'>, logger: Logger): () => void {
  return onChatChange((change) => {
    const publish = async () => {
      const thread = chatChannel(change.chatId);
      if (change.kind === 'message') {
        await publisher.trigger(thread, THREAD_MESSAGE, { message: change.message } satisfies ThreadMessageEvent);
        const members = [change.senderId, ...(change.recipientId ? [change.recipientId] : [])];
        for (const userId of members) {
          const event: ChatMessageEvent = {
            chat_id: change.chatId,
            message_id: change.message.id,
            from_me: userId === change.senderId,
            unread: await countUnreadChats(db, userId),
          };
          await publisher.trigger(userChannel(userId), CHAT_MESSAGE, event);
        }
      } else if (change.kind === 'message-updated') {
        await publisher.trigger(thread, THREAD_MESSAGE_UPDATED, {
          message: change.message,
        } satisfies ThreadMessageEvent);
      } else {
        const read: ThreadReadEvent = { user_id: change.readerId, last_read_message_id: change.lastReadId };
        await publisher.trigger(thread, THREAD_READ, read);
        const event: ChatReadEvent = { chat_id: change.chatId, unread: await countUnreadChats(db, change.readerId) };
        await publisher.trigger(userChannel(change.readerId), CHAT_READ, event);
      }
    };
    // The change is committed and shown at the next page load (or the next catch-up) whatever happens here.
    publish().catch((err) => logger.warn({ err, kind: change.kind }, 'chat change not published live'));
  });
}
