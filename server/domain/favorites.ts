// Favorites (docs/product/favorites.md): a member saves published ads and finds them on /favorites,
// with what changed since (the price, sold, expired, gone). `ads.favorites_count` follows the rows
// exactly: it moves by one in the transaction that writes or removes a row, and only when one was
// written or removed (a second save of the same ad, or two at once, count once). The members who
// saved an ad are told when its price drops or it is sold (`tellFavoriters`): a few in the
// transaction of that change, many by the job queue in batches, so the seller's request does not wait.
import { sql } from 'kysely';
import { PRICED, type PriceType } from '../../app/lib/validation/ads.ts';
import type { DB } from '../db/index.ts';
import type { AdStatus } from '../db/schema.ts';
import { withTransaction } from '../db/transaction.ts';
import { toIso, toNumber } from '../db/values.ts';
import { enqueue } from '../jobs/registry.ts';
import { type AdImageUrls, coverUrls } from './ad-images.ts';
import { Invalid, NotFound } from './errors.ts';
import { notify } from './notifications.ts';

/** Favorites per page of /favorites and of `GET /api/favorites`. */
export const FAVORITES_PAGE_SIZE = 20;

/** Up to this many members are told in the transaction of the change; more, by a job. */
export const INLINE_FANOUT = 20;

/** Members told per batch (one transaction each) of the `notify-favoriters` job. */
export const FANOUT_BATCH = 500;

/** Statuses whose page anyone may open (server/domain/ads/view.ts): a saved ad in one links to it. */
const PUBLIC: readonly AdStatus[] = ['published', 'sold', 'expired'];

/**
 * Saves a published ad for the member. Returns whether it was new (false: already saved, nothing
 * changes). An ad nobody may see (missing, pending, rejected, deleted…) is NotFound; a sold or
 * expired one is refused with `ad-unavailable` (its page says why).
 */
export async function addFavorite(db: DB, userId: string, adId: number, now = new Date()): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const ad = await tx
      .selectFrom('ads')
      .select(['status', 'price', 'currency', 'price_type'])
      .where('id', '=', adId)
      .executeTakeFirst();
    if (!ad || !PUBLIC.includes(ad.status)) throw new NotFound('errors.not-found');
    if (ad.status !== 'published') {
      // Saving again what is already saved changes nothing, whatever became of the ad.
      if (await isFavorite(tx, userId, adId)) return false;
      throw new Invalid({ ad: ['favorites.unavailable'] });
    }
    const row = await tx
      .insertInto('favorites')
      .values({
        user_id: userId,
        ad_id: adId,
        saved_price: ad.price === null ? null : toNumber(ad.price),
        saved_currency: ad.currency,
        saved_price_type: ad.price_type,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['user_id', 'ad_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await tx.updateTable('ads').set({ favorites_count: sql`favorites_count + 1` }).where('id', '=', adId).execute();
    return true;
  });
}

/** Removes the ad from the member's favorites, whatever its status. Returns whether it was saved. */
export async function removeFavorite(db: DB, userId: string, adId: number): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const row = await tx
      .deleteFrom('favorites')
      .where('user_id', '=', userId)
      .where('ad_id', '=', adId)
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await tx
      .updateTable('ads')
      .set({ favorites_count: sql`favorites_count - 1` })
      .where('id', '=', adId)
      .where('favorites_count', '>', 0)
      .execute();
    return true;
  });
}

export async function isFavorite(db: DB, userId: string, adId: number): Promise<boolean> {
  const row = await db
    .selectFrom('favorites')
    .select('id')
    .where('user_id', '=', userId)
    .where('ad_id', '=', adId)
    .executeTakeFirst();
  return !!row;
}

/** Which of these ads the member has saved (for the hearts of a page's cards). */
export async function favoritedAmong(db: DB, userId: string, adIds: readonly number[]): Promise<Set<number>> {
  if (adIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('favorites')
    .select('ad_id')
    .where('user_id', '=', userId)
    .where('ad_id', 'in', [...new Set(adIds)])
    .execute();
  return new Set(rows.map((r) => Number(r.ad_id)));
}

/** The member's favorites (the /profile page's count). */
export async function countFavorites(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('favorites')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return toNumber(row?.n);
}

/** Cards (or anything with an `id`) marked with whether the member saved each; unmarked for visitors. */
export async function markFavorited<T extends { id: number }>(
  db: DB,
  userId: string | null | undefined,
  cards: T[],
): Promise<(T & { favorited?: boolean })[]> {
  if (!userId || cards.length === 0) return cards;
  const saved = await favoritedAmong(
    db,
    userId,
    cards.map((c) => c.id),
  );
  return cards.map((c) => (saved.has(c.id) ? { ...c, favorited: true } : c));
}

interface Price {
  price: number | null;
  currency: string;
  price_type: string;
}

/**
 * A drop buyers can compare: an amount before and after in the same currency, both priced types
 * (fixed or negotiable), lower after. A change of currency, or to or from free, on request or
 * exchange, is a change but not a drop (docs/product/favorites.md).
 */
export function isPriceDrop(before: Price, after: Price): boolean {
  return (
    before.price !== null &&
    after.price !== null &&
    before.currency === after.currency &&
    PRICED.includes(before.price_type as PriceType) &&
    PRICED.includes(after.price_type as PriceType) &&
    after.price < before.price
  );
}

export interface FavoriteItem {
  /** The favorite's id: the keyset of the list (`before`). */
  id: number;
  saved_at: string;
  ad: {
    id: number;
    slug: string;
    title: string;
    status: AdStatus;
    price: number | null;
    currency: string;
    price_type: string;
    taxonomy_slug: string;
    category_slug: string;
    city: { name_ar: string; name_en: string };
    area: { name_ar: string; name_en: string } | null;
    photo: AdImageUrls | null;
  };
  /** The price when it was saved. */
  saved: Price;
  /** The price, its currency or its type differ from when it was saved. */
  price_changed: boolean;
  /** Compared in the same currency: `down` (isPriceDrop), `up`, or null (not comparable, or unchanged). */
  price_direction: 'down' | 'up' | null;
  /** Anyone may open the ad's page (published, sold, expired): the item links to it. */
  public: boolean;
}

export interface FavoritePage {
  items: FavoriteItem[];
  /** The `before` of the next (older) page, or null on the last page. */
  next: number | null;
}

/** One page of the member's favorites, the most recently saved first (keyset: favorites older than `before`). */
export async function listFavorites(
  db: DB,
  userId: string,
  options: { before?: number | null; limit?: number } = {},
): Promise<FavoritePage> {
  const limit = options.limit ?? FAVORITES_PAGE_SIZE;
  const rows = await db
    .selectFrom('favorites as f')
    .innerJoin('ads', 'ads.id', 'f.ad_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('cities', 'cities.id', 'ads.city_id')
    .leftJoin('areas', 'areas.id', 'ads.area_id')
    .select([
      'f.id',
      'f.created_at',
      'f.saved_price',
      'f.saved_currency',
      'f.saved_price_type',
      'ads.id as ad_id',
      'ads.slug',
      'ads.title',
      'ads.status',
      'ads.price',
      'ads.currency',
      'ads.price_type',
      'categories.slug as category_slug',
      'taxonomies.slug as taxonomy_slug',
      'cities.name_ar',
      'cities.name_en',
      'areas.name_ar as area_ar',
      'areas.name_en as area_en',
    ])
    .where('f.user_id', '=', userId)
    .$if(options.before != null, (q) => q.where('f.id', '<', options.before as number))
    .orderBy('f.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  // A deleted ad's photos are not shown (its page is gone).
  const covers = await coverUrls(
    db,
    page.filter((r) => r.status !== 'deleted').map((r) => Number(r.ad_id)),
  );
  return {
    items: page.map((r) => {
      const now: Price = {
        price: r.price === null ? null : toNumber(r.price),
        currency: r.currency,
        price_type: r.price_type,
      };
      const saved: Price = {
        price: r.saved_price === null ? null : toNumber(r.saved_price),
        currency: r.saved_currency,
        price_type: r.saved_price_type,
      };
      const changed =
        now.price !== saved.price || now.currency !== saved.currency || now.price_type !== saved.price_type;
      const sameScale = now.price !== null && saved.price !== null && now.currency === saved.currency;
      return {
        id: Number(r.id),
        saved_at: toIso(r.created_at),
        ad: {
          id: Number(r.ad_id),
          slug: r.slug,
          title: r.title,
          status: r.status,
          ...now,
          taxonomy_slug: r.taxonomy_slug,
          category_slug: r.category_slug,
          city: { name_ar: r.name_ar, name_en: r.name_en },
          area: r.area_ar !== null ? { name_ar: r.area_ar, name_en: r.area_en as string } : null,
          photo: covers.get(Number(r.ad_id)) ?? null,
        },
        saved,
        price_changed: changed,
        price_direction:
          sameScale && now.price !== saved.price
            ? (now.price as number) < (saved.price as number)
              ? 'down'
              : 'up'
            : null,
        public: PUBLIC.includes(r.status),
      };
    }),
    next: rows.length > limit ? Number(page[page.length - 1]?.id) : null,
  };
}

/** Removes every favorite of a member whose account goes, keeping the ads' counts exact. */
export async function releaseFavorites(trx: DB, userId: string): Promise<void> {
  const rows = await trx.selectFrom('favorites').select('ad_id').where('user_id', '=', userId).execute();
  if (rows.length === 0) return;
  await trx.deleteFrom('favorites').where('user_id', '=', userId).execute();
  const ids = rows.map((r) => Number(r.ad_id));
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .updateTable('ads')
      .set({ favorites_count: sql`favorites_count - 1` })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('favorites_count', '>', 0)
      .execute();
  }
}

/** What the members who saved an ad are told: its price dropped, or it was sold. */
export type FavoriteNews =
  | {
      type: 'favorite-price-drop';
      data: { ad_id: number; title: string; old_price: number; new_price: number; currency: string };
    }
  | { type: 'favorite-sold'; data: { ad_id: number; title: string } };

/** The favorites of an ad to tell, in id order: after `after`, up to `upTo`, never the seller's own. */
function favoritersOf(db: DB, adId: number, sellerId: string | null, after: number, upTo: number | null) {
  return db
    .selectFrom('favorites')
    .select(['id', 'user_id'])
    .where('ad_id', '=', adId)
    .where('id', '>', after)
    .$if(upTo !== null, (q) => q.where('id', '<=', upTo as number))
    .$if(sellerId !== null, (q) => q.where('user_id', '!=', sellerId as string))
    .orderBy('id');
}

/**
 * Tells the members who saved the ad (not its seller) the news, in the transaction `trx` of the
 * change: up to INLINE_FANOUT of them with their notifications written there; more, by the
 * `notify-favoriters` job enqueued there (the notifications follow in batches once it commits).
 * Members who save the ad after the change are not told: they saw it as it is.
 */
export async function tellFavoriters(trx: DB, adId: number, sellerId: string | null, news: FavoriteNews) {
  const first = await favoritersOf(trx, adId, sellerId, 0, null)
    .limit(INLINE_FANOUT + 1)
    .execute();
  if (first.length === 0) return;
  if (first.length <= INLINE_FANOUT) {
    for (const f of first) await notify(trx, f.user_id, news.type, news.data);
    return;
  }
  const last = await trx
    .selectFrom('favorites')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('ad_id', '=', adId)
    .executeTakeFirstOrThrow();
  await enqueue(trx, 'notify-favoriters', {
    adId,
    sellerId,
    type: news.type,
    data: news.data,
    after: 0,
    upTo: toNumber(last.id),
  });
}

export interface FavoritersBatch {
  adId: number;
  sellerId: string | null;
  type: FavoriteNews['type'];
  data: Record<string, unknown>;
  /** The last favorite id told (0 at first). */
  after: number;
  /** The ad's last favorite id when it changed: later ones are not told. */
  upTo: number;
}

/**
 * One batch of the `notify-favoriters` job: up to `size` members told in one transaction, with the
 * job of the next batch when there may be more. Returns how many were told. A batch commits with
 * the job of the next one; a process that dies after that commit but before its job is marked done
 * repeats the batch when the job is retried (the queue runs a job at least once).
 */
export async function tellFavoritersBatch(db: DB, batch: FavoritersBatch, size = FANOUT_BATCH): Promise<number> {
  return withTransaction(db, async (tx) => {
    const rows = await favoritersOf(tx, batch.adId, batch.sellerId, batch.after, batch.upTo).limit(size).execute();
    for (const f of rows) await notify(tx, f.user_id, batch.type, batch.data);
    const last = rows[rows.length - 1];
    if (rows.length === size && last) {
      await enqueue(tx, 'notify-favoriters', { ...batch, after: Number(last.id) });
    }
    return rows.length;
  });
}

/** How many members saved the ad (its owner's pages show it). */
export async function favoritesOfAd(db: DB, adId: number): Promise<number> {
  const row = await db.selectFrom('ads').select('favorites_count').where('id', '=', adId).executeTakeFirst();
  return toNumber(row?.favorites_count);
}
