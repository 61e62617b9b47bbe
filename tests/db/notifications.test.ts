// A member's notifications (server/domain/notifications.ts) on every dialect: written in the
// transaction of what they tell and announced only once it commits, listed newest first by keyset
// with a link to the ad while it is the member's, marked read one by one or all at once; and the
// relay that publishes the unread count on the member's channel (server/realtime/notifications.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { withTransaction } from '../../server/db/transaction.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { NotFound } from '../../server/domain/errors.ts';
import {
  countUnread,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationChange,
  notify,
  onNotificationChange,
} from '../../server/domain/notifications.ts';
import { createLogger } from '../../server/logger.ts';
import { relayNotifications } from '../../server/realtime/notifications.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('notifications on %s', (dialect) => {
  let t: TestDatabase;
  let cityId: number;
  const heard: NotificationChange[] = [];
  let stop: () => void;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
    stop = onNotificationChange((c) => heard.push(c));
  });
  afterEach(() => {
    heard.length = 0;
  });
  afterAll(async () => {
    stop();
    await t.drop();
  });

  const member = () => insertMember(t.db);
  const place = async (owner: { id: string }) =>
    createAd(
      t.db,
      { moderation: 'pre' },
      owner,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(cityId),
    );

  it('is written with its change and announced only after the commit, never after a rollback', async () => {
    const m = await member();
    await withTransaction(t.db, async (tx) => {
      await notify(tx, m.id, 'system', { n: 1 });
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([{ kind: 'created', userId: m.id, id: expect.any(Number), type: 'system' }]);
    heard.length = 0;
    await expect(
      withTransaction(t.db, async (tx) => {
        await notify(tx, m.id, 'system', { n: 2 });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(heard).toEqual([]);
    expect(await countUnread(t.db, m.id)).toBe(1);
    await notify(t.db, null, 'system', {});
    expect(heard).toEqual([]);
  });

  it('tells the owner when staff approve their ad, linking to the owner’s page of it', async () => {
    const owner = await member();
    const staff = await member();
    const ad = await place(owner);
    await moveAd(t.db, staff, ad.id, 'approve');
    expect(heard).toEqual([{ kind: 'created', userId: owner.id, id: expect.any(Number), type: 'ad-approved' }]);
    const page = await listNotifications(t.db, owner.id);
    expect(page.items).toEqual([
      {
        id: expect.any(Number),
        type: 'ad-approved',
        data: { ad_id: ad.id, title: 'Toyota Corolla 2015' },
        read: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        subject: `/profile/posts/motors/toyota/${ad.slug}-${ad.id}`,
      },
    ]);
    // Deleted, the ad is no subject any more.
    await moveAd(t.db, owner, ad.id, 'delete', { owner: owner.id });
    expect((await listNotifications(t.db, owner.id)).items[0]?.subject).toBeNull();
  });

  it('lists newest first, a page at a time by keyset, the member’s own only', async () => {
    const m = await member();
    const other = await member();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      await notify(t.db, m.id, 'system', { i });
      ids.push(heard.at(-1)?.kind === 'created' ? (heard.at(-1) as { id: number }).id : 0);
    }
    await notify(t.db, other.id, 'system', { i: 'other' });
    const first = await listNotifications(t.db, m.id, { limit: 3 });
    expect(first.items.map((n) => n.id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first.next).toBe(ids[4]);
    const second = await listNotifications(t.db, m.id, { limit: 3, before: first.next });
    expect(second.items.map((n) => n.id)).toEqual([ids[3], ids[2], ids[1]]);
    const last = await listNotifications(t.db, m.id, { limit: 3, before: second.next });
    expect(last.items.map((n) => n.id)).toEqual([ids[0]]);
    expect(last.next).toBeNull();
    // Exactly a page: no next page.
    expect((await listNotifications(t.db, m.id, { limit: 7 })).next).toBeNull();
    // Someone else's ad is no subject.
    const stranger = await member();
    const theirs = await place(stranger);
    await notify(t.db, m.id, 'ad-expired', { ad_id: theirs.id, title: 'Not mine' });
    expect((await listNotifications(t.db, m.id, { limit: 1 })).items[0]?.subject).toBeNull();
  });

  it('marks one read (someone else’s is NotFound), then all, announcing only real changes', async () => {
    const m = await member();
    const other = await member();
    for (let i = 0; i < 3; i++) await notify(t.db, m.id, 'system', { i });
    const [a] = (await listNotifications(t.db, m.id)).items;
    heard.length = 0;
    await expect(markNotificationRead(t.db, other.id, a?.id as number)).rejects.toBeInstanceOf(NotFound);
    await expect(markNotificationRead(t.db, m.id, 2_000_000_000)).rejects.toBeInstanceOf(NotFound);
    expect(heard).toEqual([]);
    expect(await markNotificationRead(t.db, m.id, a?.id as number)).toBe(true);
    expect(heard).toEqual([{ kind: 'read', userId: m.id }]);
    expect(await markNotificationRead(t.db, m.id, a?.id as number)).toBe(false);
    expect(heard).toHaveLength(1);
    expect(await countUnread(t.db, m.id)).toBe(2);
    expect(await markAllNotificationsRead(t.db, other.id)).toBe(0);
    expect(await markAllNotificationsRead(t.db, m.id)).toBe(2);
    expect(await markAllNotificationsRead(t.db, m.id)).toBe(0);
    expect(heard).toEqual([
      { kind: 'read', userId: m.id },
      { kind: 'read', userId: m.id },
    ]);
    expect(await countUnread(t.db, m.id)).toBe(0);
    expect((await listNotifications(t.db, m.id)).items.every((n) => n.read)).toBe(true);
  });

  it('relays each change to the member’s channel with the unread count after it', async () => {
    const m = await member();
    const published: { channel: string | string[]; event: string; data: unknown }[] = [];
    const logger = createLogger('silent');
    const warnings: unknown[] = [];
    logger.warn = ((obj: unknown) => void warnings.push(obj)) as typeof logger.warn;
    let fail = false;
    const relay = relayNotifications(
      t.db,
      {
        async trigger(channel, event, data) {
          if (fail) throw new Error('the realtime server is away');
          published.push({ channel, event, data });
        },
      },
      logger,
    );
    const settled = () => new Promise((r) => setTimeout(r, 50));
    try {
      await notify(t.db, m.id, 'system', {});
      await settled();
      await notify(t.db, m.id, 'system', {});
      await settled();
      expect(published).toEqual([
        {
          channel: `private-users.${m.id}`,
          event: 'notification.created',
          data: { id: expect.any(Number), type: 'system', unread: 1 },
        },
        {
          channel: `private-users.${m.id}`,
          event: 'notification.created',
          data: { id: expect.any(Number), type: 'system', unread: 2 },
        },
      ]);
      await markAllNotificationsRead(t.db, m.id);
      await settled();
      expect(published.at(-1)).toEqual({
        channel: `private-users.${m.id}`,
        event: 'notification.read',
        data: { unread: 0 },
      });
      // A publisher that fails loses the live update only: the notification is stored.
      fail = true;
      await notify(t.db, m.id, 'system', {});
      await settled();
      expect(warnings).toHaveLength(1);
      expect(await countUnread(t.db, m.id)).toBe(1);
    } finally {
      relay();
    }
    await notify(t.db, m.id, 'system', {});
    await settled();
    expect(published).toHaveLength(3);
  });

  it('publishes a member’s changes in their order, however long each publish takes', async () => {
    const m = await member();
    const published: { id: number; unread: number }[] = [];
    let slow = true;
    const relay = relayNotifications(
      t.db,
      {
        async trigger(_channel, _event, data) {
          // The first publish takes its time: the second change must not overtake it.
          if (slow) {
            slow = false;
            await new Promise((r) => setTimeout(r, 100));
          }
          published.push(data as { id: number; unread: number });
        },
      },
      createLogger('silent'),
    );
    try {
      const first = await notify(t.db, m.id, 'system', {});
      const second = await notify(t.db, m.id, 'system', {});
      await expect.poll(() => published.length).toBe(2);
      expect(published.map((p) => p.id)).toEqual([first, second]);
      // The last count the member's tabs receive is the latest.
      expect(published.at(-1)?.unread).toBe(2);
    } finally {
      relay();
    }
  });
});
