// What the server publishes on a member's private channel (docs/realtime.md, "Channels and
// events"), shared by the publisher (server/realtime/notifications.ts) and the browser's realtime
// client. Names are used as they are: laravel-echo listens to them with a leading dot
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

export interface UserEvents {
  [NOTIFICATION_CREATED]: NotificationCreatedEvent;
  [NOTIFICATION_READ]: NotificationReadEvent;
}

export type UserEventName = keyof UserEvents;
export const USER_EVENTS: readonly UserEventName[] = [NOTIFICATION_CREATED, NOTIFICATION_READ];
