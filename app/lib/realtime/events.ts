// What the server publishes on a member's private channel and on a chat's presence channel
// (docs/realtime.md, "Channels and events"), shared by the publishers
// (server/realtime/notifications.ts, server/realtime/chats.ts) and the browser's realtime client.
// Names are used as they are: laravel-echo listens to them with a leading dot
// (`.notification.created`), so no namespace is put in front.

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
