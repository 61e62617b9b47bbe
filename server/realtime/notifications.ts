// Notifications, live (docs/realtime.md, "Channels and events"): every committed notification
// change of this process (server/domain/notifications.ts, told after commit) is published on the
// member's channel `private-users.{id}` with the unread count read after the commit, so each of
// the member's tabs and devices updates its counter: `notification.created` for a new one,
// `notification.read` when some were marked read. A member's changes are published in their order
// (./in-order.ts), so the last count shown is the latest.
import {
  NOTIFICATION_CREATED,
  NOTIFICATION_READ,
  type NotificationCreatedEvent,
  type NotificationReadEvent,
  userChannel,
} from '../../app/lib/realtime/events.ts';
import type { DB } from '../db/index.ts';
import { countUnread, onNotificationChange } from '../domain/notifications.ts';
import type { Logger } from '../logger.ts';
import { inOrder } from './in-order.ts';
import type { Publisher } from './publish.ts';

/** Publishes this process's notification changes through `publisher`; returns the unsubscribe. */
export function relayNotifications(db: DB, publisher: Pick<Publisher, 'trigger'>, logger: Logger): () => void {
  const queue = inOrder();
  return onNotificationChange((change) => {
    const publish = async () => {
      const unread = await countUnread(db, change.userId);
      if (change.kind === 'created') {
        const event: NotificationCreatedEvent = { id: change.id, type: change.type, unread };
        await publisher.trigger(userChannel(change.userId), NOTIFICATION_CREATED, event);
      } else {
        const event: NotificationReadEvent = { unread };
        await publisher.trigger(userChannel(change.userId), NOTIFICATION_READ, event);
      }
    };
    // The change is committed and shown at the next page load whatever happens here.
    queue(change.userId, publish).catch((err) =>
      logger.warn({ err, kind: change.kind }, 'notification not published live'),
    );
  });
}
