// A member's notifications (docs/product/accounts-and-roles.md, "Notifications"): written in the
// transaction of what they tell (an ad approved, rejected, expiring, expired), listed newest first a
// page at a time, marked read one by one or all at once. Every committed change is told to this
// process's listeners (`onNotificationChange`), which publish the new unread count on the member's
// realtime channel (server/realtime/notifications.ts).
import { EventEmitter } from 'node:events';
import type { NotificationType } from '../../app/lib/validation/profile.ts';
import type { DB } from '../db/index.ts';
import { afterCommitOf, withTransaction } from '../db/transaction.ts';
import { toIso, toJson, toNumber } from '../db/values.ts';
import { enqueue } from '../jobs/registry.ts';
import { NotFound } from './errors.ts';
import { EMAIL_PLANS, type EmailPlan } from './notification-mail/plans.ts';

/** Notifications per page of /notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export type NotificationChange =
  | { kind: 'created'; userId: string; id: number; type: string }
  | { kind: 'read'; userId: string };

const bus = new EventEmitter();
bus.setMaxListeners(20);

/** Calls `listener` on every committed notification change of this process; returns the unsubscribe. */
export function onNotificationChange(listener: (change: NotificationChange) => void): () => void {
  bus.on('change', listener);
  return () => bus.off('change', listener);
}

const told = (change: NotificationChange) => () => void bus.emit('change', change);

/**
 * Writes a notification for `userId` (none when the ad has no owner any more), in the transaction
 * of `db` when it is one; its listeners hear of it once that commits. Its mail is planned with it
 * (`email`, else the type's plan: ./notification-mail/plans.ts): a `notification-mail` job that
 * sends it if the member wants it when the job runs. Returns the notification's id.
 */
export async function notify(
  db: DB,
  userId: string | null,
  type: NotificationType,
  data: Record<string, unknown>,
  options: { email?: EmailPlan } = {},
): Promise<number | null> {
  if (!userId) return null;
  const row = await db
    .insertInto('notifications')
    .values({ user_id: userId, type, data: JSON.stringify(data) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  const plan = options.email ?? EMAIL_PLANS[type];
  if (plan !== 'none') {
    await enqueue(
      db,
      'notification-mail',
      { notificationId: id, ...(plan.unlessRead ? { unlessRead: plan.unlessRead } : {}) },
      { runAt: Date.now() + plan.delayMs },
    );
  }
  await afterCommitOf(db, told({ kind: 'created', userId, id, type }));
  return id;
}

/** How many of the member's notifications are unread (the header's counter). */
export async function countUnread(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return toNumber(row?.n);
}

export interface NotificationItem {
  id: number;
  type: string;
  data: Record<string, unknown>;
  read: boolean;
  created_at: string;
  /**
   * Where it links: the member's own page of their ad (`/profile/posts/…`), the public page of an
   * ad they saved (favorite-*), else the page its data names (`path`: a new ad for a saved search,
   * or its results); null when the ad is gone (or no longer theirs, or no longer public).
   */
  subject: string | null;
}

export interface NotificationPage {
  items: NotificationItem[];
  /** The `before` of the next (older) page, or null on the last page. */
  next: number | null;
}

/** A page of the site a notification names itself (`path`: a saved search's ad or results). */
function sitePath(path: unknown): string | null {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') ? path : null;
}
/** Notifications about an ad the member saved (docs/product/favorites.md): they link to its public page. */
const FAVORITE_TYPES: ReadonlySet<string> = new Set(['favorite-price-drop', 'favorite-sold']);
/** Statuses whose page anyone may open (server/domain/ads/view.ts). */
const PUBLIC_STATUSES: ReadonlySet<string> = new Set(['published', 'sold', 'expired']);

/** The ad a notification is about, from its data (`ad_id`). */
function adIdOf(data: Record<string, unknown>): number | null {
  const id = data.ad_id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * One page of the member's notifications, newest first: those older than `before` (a notification
 * id) when given. Each links to its subject: the member's own page of the ad, while the ad is
 * theirs and not deleted; for news of an ad they saved, its public page while anyone may open it.
 */
export async function listNotifications(
  db: DB,
  userId: string,
  options: { before?: number | null; limit?: number } = {},
): Promise<NotificationPage> {
  const limit = options.limit ?? NOTIFICATIONS_PAGE_SIZE;
  const rows = await db
    .selectFrom('notifications')
    .select(['id', 'type', 'data', 'read_at', 'created_at'])
    .where('user_id', '=', userId)
    .$if(options.before != null, (q) => q.where('id', '<', options.before as number))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit).map((r) => ({ ...r, data: toJson<Record<string, unknown>>(r.data, {}) }));
  const adIds = [...new Set(page.map((r) => adIdOf(r.data)).filter((id): id is number => id !== null))];
  const ads = adIds.length
    ? await db
        .selectFrom('ads')
        .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
        .innerJoin('categories', 'categories.id', 'ads.category_id')
        .select([
          'ads.id',
          'ads.slug',
          'ads.status',
          'ads.user_id',
          'taxonomies.slug as taxonomy_slug',
          'categories.slug as category_slug',
        ])
        .where('ads.id', 'in', adIds)
        .execute()
    : [];
  const byId = new Map(ads.map((a) => [Number(a.id), a]));
  /** The owner's page of their ad while it is theirs and not deleted; the public page of a saved ad while anyone may open it. */
  const subjectOf = (type: string, adId: number | null): string | null => {
    const ad = adId === null ? undefined : byId.get(adId);
    if (!ad) return null;
    const path = `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`;
    if (FAVORITE_TYPES.has(type)) return PUBLIC_STATUSES.has(ad.status) ? path : null;
    return ad.user_id === userId && ad.status !== 'deleted' ? `/profile/posts${path}` : null;
  };
  return {
    items: page.map((r) => {
      const adId = adIdOf(r.data);
      return {
        id: Number(r.id),
        type: r.type,
        data: r.data,
        read: r.read_at !== null,
        created_at: toIso(r.created_at),
        subject: subjectOf(r.type, adId) ?? sitePath(r.data.path),
      };
    }),
    next: rows.length > limit ? Number(page[page.length - 1]?.id) : null,
  };
}

/**
 * Marks one of the member's notifications read. Someone else's, or a missing one, is NotFound.
 * Returns whether it was unread.
 */
export async function markNotificationRead(db: DB, userId: string, id: number, now = new Date()): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const row = await tx
      .selectFrom('notifications')
      .select(['id', 'read_at'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    if (row.read_at !== null) return false;
    const done = await tx
      .updateTable('notifications')
      .set({ read_at: now })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return false;
    await afterCommitOf(tx, told({ kind: 'read', userId }));
    return true;
  });
}

/** Marks every unread notification of the member read; returns how many were. */
export async function markAllNotificationsRead(db: DB, userId: string, now = new Date()): Promise<number> {
  return withTransaction(db, async (tx) => {
    const done = await tx
      .updateTable('notifications')
      .set({ read_at: now })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    const count = Number(done.numUpdatedRows);
    if (count > 0) await afterCommitOf(tx, told({ kind: 'read', userId }));
    return count;
  });
}
