// What the server publishes on a member's private channel and on a chat's presence channel
// (docs/realtime.md, "Channels and events"), shared by the publishers
// (server/realtime/notifications.ts, server/realtime/chats.ts) and the browser's realtime client.
// Names are used as they are: laravel-echo listens to them with a leading dot
// (`.notification.created`), so no namespace is put in front.
import type { ChatMessageView } from '../../../server/domain/chats/view.ts';

/** A member's own channel: `private-users.{id}`, authorised only for that member. */
export const userChannel = (userId: string) => `private-users.${userId}`;

/** A notification was written for the member: its id and type, and the unread count after it. */
export const NOTIFICATION_CREATED = 'notification.created';
/** Notifications were marked read (in any tab or device): the unread count after it. */
export const NOTIFICATION_READ = 'notification.read';

export interface NotificationCreatedEvent {
  id: number;
  type: string;
  unread: number;
}

export interface NotificationReadEvent {
  unread: number;
}

/** A message was stored in one of the member's chats (theirs or the other side's). */
export const CHAT_MESSAGE = 'chat.message';
/** The member read a chat (in any tab or device). */
export const CHAT_READ = 'chat.read';

export interface ChatMessageEvent {
  chat_id: number;
  message_id: number;
  /** The member sent it (from another tab or device). */
  from_me: boolean;
  /** The member's chats with unread messages after it (the header's counter). */
  unread: number;
}

export interface ChatReadEvent {
  chat_id: number;
  unread: number;
}

export interface UserEvents {
  [NOTIFICATION_CREATED]: NotificationCreatedEvent;
  [NOTIFICATION_READ]: NotificationReadEvent;
  [CHAT_MESSAGE]: ChatMessageEvent;
  [CHAT_READ]: ChatReadEvent;
}

export type UserEventName = keyof UserEvents;
export const USER_EVENTS: readonly UserEventName[] = [NOTIFICATION_CREATED, NOTIFICATION_READ, CHAT_MESSAGE, CHAT_READ];

/** A chat's presence channel: its two participants, who is here, typing, the thread's events. */
export const chatChannel = (chatId: number) => `presence-chats.${chatId}`;

/** A message stored in the chat: the whole message. */
export const THREAD_MESSAGE = 'message.created';
/** A message changed (an offer answered): the whole message as it is now. */
export const THREAD_MESSAGE_UPDATED = 'message.updated';
/** A participant read up to a message (read receipts). */
export const THREAD_READ = 'chat.read';
/** Client event (laravel-echo's whisper `typing`): a participant is typing, or stopped. */
export const TYPING_WHISPER = 'typing';

export interface ThreadMessageEvent {
  message: ChatMessageView;
}

export interface ThreadReadEvent {
  user_id: string;
  last_read_message_id: number;
}

export interface TypingWhisper {
  typing: boolean;
}

/** What the presence channel's `channel_data` says of each member (`user_info`; laravel-echo hands on only this). */
export interface ChatMemberInfo {
  id: string;
  name: string;
  image: string | null;
}
