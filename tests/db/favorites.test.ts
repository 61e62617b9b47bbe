// Favorites (server/domain/favorites.ts, docs/product/favorites.md) on every dialect: one row per
// member and ad, `ads.favorites_count` exact under repeats and concurrent saves, only published ads
// saved, the member's list by keyset with what changed since; the members who saved an ad told of a
// price drop (at once, or once a moderator approves it) and of a sale — never of a raise, never the
// seller — in the change's transaction when they are few, by the job queue in batches when many.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { approveAdChange } from '../../server/domain/ads/changes.ts';
import { type AdInput, createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import {
  addFavorite,
  countFavorites,
  favoritedAmong,
  INLINE_FANOUT,
  isPriceDrop,
  listFavorites,
  markFavorited,
  removeFavorite,
  tellFavoritersBatch,
} from '../../server/domain/favorites.ts';
import { listNotifications } from '../../server/domain/notifications.ts';
import { releaseAccountData } from '../../server/domain/profile.ts';
import { jobHandlers } from '../../server/jobs/app-jobs.ts';
import { createWorker } from '../../server/jobs/queue.ts';
import { createLogger } from '../../server/logger.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const logger = createLogger('silent');

describe.each(dialects)('favorites on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
  });

  const member = (name?: string) => insertMember(t.db, { name });
  const members = (n: number) => Promise.all(Array.from({ length: n }, () => member()));
  /** A published Toyota ad of a new seller (each seller's allowance is 5 ads). */
  const publish = async (over: Partial<AdInput> = {}, seller?: { id: string }) => {
    const owner = seller ?? (await member('seller'));
    const ad = await createAd(
      t.db,
      { moderation: 'post' },
      owner,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      toyotaAdInput(cityId, over),
    );
    return { ...ad, owner };
  };
  const edit = async (
    owner: { id: string },
    id: number,
    over: Partial<AdInput>,
    moderation: 'pre' | 'post' = 'pre',
  ) => {
    const { submission_key: _, ...rest } = toyotaAdInput(cityId, over);
    return updateAd(t.db, { moderation }, owner, id, attributes, rest);
  };
  const count = async (id: number) =>
    toNumber(
      (await t.db.selectFrom('ads').select('favorites_count').where('id', '=', id).executeTakeFirstOrThrow())
        .favorites_count,
    );
  const rows = async (id: number) =>
    toNumber(
      (
        await t.db
          .selectFrom('favorites')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('ad_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const notes = (userId: string) =>
    t.db
      .selectFrom('notifications')
      .select(['type', 'data'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
      .then((list) => list.map((n) => ({ type: n.type, data: toJson<Record<string, unknown>>(n.data, {}) })));
  const jobs = () => t.db.selectFrom('jobs').select(['name', 'payload', 'status']).orderBy('id').execute();
  const drain = () =>
    createWorker({
      db: t.db,
      dialect,
      logger,
      handlers: jobHandlers({
        mailer: { send: async () => {} },
        links: { origin: 'http://souq.test', secret: 'x'.repeat(32) },
      }),
    }).drain();

  it('saves an ad once per member and keeps its count exact, also when saved twice at once', async () => {
    const ad = await publish();
    const [a, b] = await members(2);
    expect(await addFavorite(t.db, a.id, ad.id)).toBe(true);
    expect(await addFavorite(t.db, a.id, ad.id)).toBe(false);
    const twice = await Promise.all([addFavorite(t.db, b.id, ad.id), addFavorite(t.db, b.id, ad.id)]);
    expect(twice.filter(Boolean)).toHaveLength(1);
    expect(await count(ad.id)).toBe(2);
    expect(await rows(ad.id)).toBe(2);
    // The database refuses a second row for the same member and ad, whatever the code does.
    await expect(
      t.db
        .insertInto('favorites')
        .values({ user_id: a.id, ad_id: ad.id, saved_price: 1, saved_currency: 'LYD', saved_price_type: 'fixed' })
        .execute(),
    ).rejects.toThrow();
    expect(await favoritedAmong(t.db, a.id, [ad.id, 999_999])).toEqual(new Set([ad.id]));
    expect(await countFavorites(t.db, a.id)).toBe(1);
  });

  it('counts many members saving and removing at once exactly', async () => {
    const ad = await publish();
    const many = await members(12);
    await Promise.all(many.map((m) => addFavorite(t.db, m.id, ad.id)));
    expect(await count(ad.id)).toBe(12);
    const removed = await Promise.all([
      ...many.slice(0, 6).map((m) => removeFavorite(t.db, m.id, ad.id)),
      ...many.slice(0, 6).map((m) => removeFavorite(t.db, m.id, ad.id)),
    ]);
    expect(removed.filter(Boolean)).toHaveLength(6);
    expect(await count(ad.id)).toBe(6);
    expect(await rows(ad.id)).toBe(6);
    // Removing what is not saved changes nothing.
    expect(await removeFavorite(t.db, many[0]?.id as string, ad.id)).toBe(false);
    expect(await count(ad.id)).toBe(6);
  });

  it('saves published ads only; a saved ad is removed whatever became of it', async () => {
    const fan = await member();
    const seller = await member('seller');
    const pending = await createAd(
      t.db,
      { moderation: 'pre' },
      seller,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      toyotaAdInput(cityId),
    );
    await expect(addFavorite(t.db, fan.id, pending.id)).rejects.toThrow(NotFound);
    await expect(addFavorite(t.db, fan.id, 999_999_999)).rejects.toThrow(NotFound);
    const ad = await publish({}, seller);
    await addFavorite(t.db, fan.id, ad.id);
    await moveAd(t.db, seller, ad.id, 'mark-sold', { owner: seller.id });
    // Sold: saving again is no change, a new member is refused with the reason.
    expect(await addFavorite(t.db, fan.id, ad.id)).toBe(false);
    const other = await member();
    await expect(addFavorite(t.db, other.id, ad.id)).rejects.toThrow(Invalid);
    await moveAd(t.db, seller, ad.id, 'delete', { owner: seller.id });
    await expect(addFavorite(t.db, other.id, ad.id)).rejects.toThrow(NotFound);
    expect(await removeFavorite(t.db, fan.id, ad.id)).toBe(true);
    expect(await count(ad.id)).toBe(0);
    expect(await count(pending.id)).toBe(0);
  });

  it('lists the member’s favorites newest first by keyset, with what changed since they were saved', async () => {
    const fan = await member();
    const seller = await member('seller');
    const dropped = await publish({ title: 'Dropped', price: 50_000 }, seller);
    const raised = await publish({ title: 'Raised', price: 30_000 }, seller);
    const sold = await publish({ title: 'Sold', price: 20_000 }, seller);
    const gone = await publish({ title: 'Gone' }, seller);
    const same = await publish({ title: 'Same' }, seller);
    for (const ad of [dropped, raised, sold, gone, same]) await addFavorite(t.db, fan.id, ad.id);
    await edit(seller, dropped.id, { title: 'Dropped', price: 42_000 });
    // A raise waits for review under `pre`: applied at once under `post`.
    await edit(seller, raised.id, { title: 'Raised', price: 35_000 }, 'post');
    await moveAd(t.db, seller, sold.id, 'mark-sold', { owner: seller.id });
    await moveAd(t.db, seller, gone.id, 'delete', { owner: seller.id });

    const first = await listFavorites(t.db, fan.id, { limit: 3 });
    expect(first.items.map((i) => i.ad.title)).toEqual(['Same', 'Gone', 'Sold']);
    expect(first.next).toBe(first.items[2]?.id);
    const second = await listFavorites(t.db, fan.id, { limit: 3, before: first.next });
    expect(second.items.map((i) => i.ad.title)).toEqual(['Raised', 'Dropped']);
    expect(second.next).toBeNull();

    const byTitle = new Map([...first.items, ...second.items].map((i) => [i.ad.title, i]));
    expect(byTitle.get('Dropped')).toMatchObject({
      saved: { price: 50_000, currency: 'LYD', price_type: 'fixed' },
      ad: { price: 42_000, status: 'published' },
      price_changed: true,
      price_direction: 'down',
      public: true,
    });
    expect(byTitle.get('Raised')).toMatchObject({ price_changed: true, price_direction: 'up' });
    expect(byTitle.get('Same')).toMatchObject({ price_changed: false, price_direction: null });
    expect(byTitle.get('Sold')).toMatchObject({ ad: { status: 'sold' }, public: true });
    expect(byTitle.get('Gone')).toMatchObject({ ad: { status: 'deleted', photo: null }, public: false });
    // Another member's list is their own.
    expect((await listFavorites(t.db, seller.id)).items).toEqual([]);
    // Cards of a page are marked for members only.
    const cards = [{ id: dropped.id }, { id: 999_999 }];
    expect(await markFavorited(t.db, fan.id, cards)).toEqual([{ id: dropped.id, favorited: true }, { id: 999_999 }]);
    expect(await markFavorited(t.db, null, cards)).toBe(cards);
  });

  it('tells who saved the ad of a price drop applied at once, never the seller, never a raise', async () => {
    const seller = await member('seller');
    const ad = await publish({ title: 'Corolla for less', price: 45_000 }, seller);
    const [a, b] = await members(2);
    await addFavorite(t.db, a.id, ad.id);
    await addFavorite(t.db, b.id, ad.id);
    // The seller saved their own ad: they are not told of their own change.
    await addFavorite(t.db, seller.id, ad.id);

    // A raise (waiting for review under `pre`, or applied under `post`) tells nobody.
    await edit(seller, ad.id, { title: 'Corolla for less', price: 47_000 }, 'post');
    expect(await notes(a.id)).toEqual([]);

    // A drop needs no review: applied at once, told at once (in the edit's transaction).
    const edited = await edit(seller, ad.id, { title: 'Corolla for less', price: 40_000 });
    expect(edited.reviewed).toEqual([]);
    const told = {
      type: 'favorite-price-drop',
      data: { ad_id: ad.id, title: 'Corolla for less', old_price: 47_000, new_price: 40_000, currency: 'LYD' },
    };
    expect(await notes(a.id)).toEqual([told]);
    expect(await notes(b.id)).toEqual([told]);
    expect(await notes(seller.id)).toEqual([]);
    expect(await jobs()).not.toContainEqual(expect.objectContaining({ name: 'notify-favoriters' }));

    // Saving the same price again, or changing the type to negotiable at the same amount, is no drop.
    await edit(seller, ad.id, { title: 'Corolla for less', price: 40_000, price_type: 'negotiable' });
    expect(await notes(a.id)).toHaveLength(1);
    // A member who saves it afterwards sees the new price: the next drop tells them too.
    const late = await member();
    await addFavorite(t.db, late.id, ad.id);
    await edit(seller, ad.id, { title: 'Corolla for less', price: 39_000, price_type: 'negotiable' });
    expect((await notes(late.id)).map((n) => n.data.new_price)).toEqual([39_000]);
    expect((await notes(a.id)).map((n) => n.data.new_price)).toEqual([40_000, 39_000]);
  });

  it('tells of a drop only once approved when it waits for review with the rest of an edit', async () => {
    const seller = await member('seller');
    const ad = await publish({ title: 'Yaris', price: 30_000, currency: 'LYD' }, seller);
    const fan = await member();
    await addFavorite(t.db, fan.id, ad.id);
    // A drop in another currency is reviewed (not comparable): nothing until approved, and then no "drop".
    const edited = await edit(seller, ad.id, { title: 'Yaris', price: 5_000, currency: 'USD' });
    expect(edited.reviewed).toEqual(expect.arrayContaining(['price', 'currency']));
    expect(await notes(fan.id)).toEqual([]);
    await approveAdChange(t.db, await member('staff'), ad.id);
    expect(await notes(fan.id)).toEqual([]);

    // A free-text change and a drop in the same currency: the drop applies (and is told) at once, the
    // title waits; approving the title tells nobody again.
    await edit(seller, ad.id, { title: 'Yaris hybrid', price: 4_500, currency: 'USD' });
    expect(await notes(fan.id)).toEqual([
      {
        type: 'favorite-price-drop',
        data: { ad_id: ad.id, title: 'Yaris', old_price: 5_000, new_price: 4_500, currency: 'USD' },
      },
    ]);
    await approveAdChange(t.db, await member('staff'), ad.id);
    expect(await notes(fan.id)).toHaveLength(1);
  });

  it('tells who saved the ad that it was sold, not the seller', async () => {
    const seller = await member('seller');
    const ad = await publish({ title: 'Sold Corolla' }, seller);
    const fan = await member();
    await addFavorite(t.db, fan.id, ad.id);
    await addFavorite(t.db, seller.id, ad.id);
    await moveAd(t.db, seller, ad.id, 'mark-sold', { owner: seller.id });
    expect(await notes(fan.id)).toEqual([{ type: 'favorite-sold', data: { ad_id: ad.id, title: 'Sold Corolla' } }]);
    expect(await notes(seller.id)).toEqual([]);
    // The notification links to the ad's public page while it is public, to nothing once deleted.
    const [note] = (await listNotifications(t.db, fan.id)).items;
    expect(note?.subject).toMatch(new RegExp(`^/motors/toyota/.+-${ad.id}$`));
    await moveAd(t.db, seller, ad.id, 'delete', { owner: seller.id });
    expect((await listNotifications(t.db, fan.id)).items[0]?.subject).toBeNull();
  });

  it('leaves many favoriters to the job queue, in batches, each told once; later savers are not told', async () => {
    const seller = await member('seller');
    const ad = await publish({ title: 'Popular Corolla', price: 60_000 }, seller);
    const many = await members(INLINE_FANOUT + 5);
    for (const m of many) await addFavorite(t.db, m.id, ad.id);
    await addFavorite(t.db, seller.id, ad.id);
    await edit(seller, ad.id, { title: 'Popular Corolla', price: 55_000 });
    // The seller's edit wrote no notification: one job carries them all.
    for (const m of many) expect(await notes(m.id)).toEqual([]);
    const [job] = (await jobs()).filter((j) => j.name === 'notify-favoriters');
    const payload = toJson<Record<string, unknown>>(job?.payload, {});
    expect(payload).toMatchObject({ adId: ad.id, sellerId: seller.id, type: 'favorite-price-drop', after: 0 });
    // Saved after the change: not told of it.
    const late = await member();
    await addFavorite(t.db, late.id, ad.id);

    // The first batch, of 10: the next batch's job comes with it.
    await t.db.deleteFrom('jobs').execute();
    const batch = { ...(payload as never as Parameters<typeof tellFavoritersBatch>[1]) };
    expect(await tellFavoritersBatch(t.db, batch, 10)).toBe(10);
    const next = (await jobs()).filter((j) => j.name === 'notify-favoriters');
    expect(next).toHaveLength(1);
    // The worker runs the rest.
    expect(await drain()).toBeGreaterThanOrEqual(1);
    for (const m of many) {
      expect(await notes(m.id)).toEqual([
        {
          type: 'favorite-price-drop',
          data: { ad_id: ad.id, title: 'Popular Corolla', old_price: 60_000, new_price: 55_000, currency: 'LYD' },
        },
      ]);
    }
    expect(await notes(seller.id)).toEqual([]);
    expect(await notes(late.id)).toEqual([]);
    expect((await jobs()).filter((j) => j.status !== 'done')).toEqual([]);
  });

  it('lets a deleted account’s favorites go with it, lowering the counts', async () => {
    const ad = await publish();
    const [stays, leaves] = await members(2);
    await addFavorite(t.db, stays.id, ad.id);
    await addFavorite(t.db, leaves.id, ad.id);
    expect(await count(ad.id)).toBe(2);
    await releaseAccountData(t.db, leaves.id);
    expect(await count(ad.id)).toBe(1);
    expect(await rows(ad.id)).toBe(1);
    expect(await countFavorites(t.db, leaves.id)).toBe(0);
  });

  it('calls a drop only a lower amount in the same currency between priced types', () => {
    const p = (price: number | null, currency = 'LYD', price_type = 'fixed') => ({ price, currency, price_type });
    expect(isPriceDrop(p(100), p(90))).toBe(true);
    expect(isPriceDrop(p(100), p(90, 'LYD', 'negotiable'))).toBe(true);
    expect(isPriceDrop(p(100), p(100))).toBe(false);
    expect(isPriceDrop(p(100), p(110))).toBe(false);
    expect(isPriceDrop(p(100), p(90, 'USD'))).toBe(false);
    expect(isPriceDrop(p(100), p(null, 'LYD', 'free'))).toBe(false);
    expect(isPriceDrop(p(null, 'LYD', 'on-request'), p(90))).toBe(false);
  });
});
