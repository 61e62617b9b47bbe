// Ad photos (docs/product/ads.md): uploaded one by one while the ad form is filled in, before the ad exists.
// Each upload is checked and re-encoded on the server (server/media/images.ts) and becomes an
// `ad_images` row owned by the member with `ad_id` null ("pending"). Saving the ad attaches the
// rows it names (ad_id + position, in the ad's transaction: server/domain/ads/placing.ts); pending rows
// nobody attached within a day are pruned with their files by the `prune-orphan-ad-images` job.
//
// Files: `ads/<yyyy>/<mm>/<random>-<variant>.webp`; the row's `key` is the part before `-<variant>`.
// The random part (128 bits) is the only protection of a pending photo's URL, like any upload's.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DB } from '../db/index.ts';
import type { AdImagesTable } from '../db/schema.ts';
import { withTransaction } from '../db/transaction.ts';
import { toJson } from '../db/values.ts';
import { AD_PHOTO_VARIANTS, MAX_IMAGE_BYTES, processImage } from '../media/images.ts';
import { type MediaStorage, UPLOADS_PUBLIC_PATH } from '../media/storage.ts';
import { Invalid, NotFound } from './errors.ts';
import { hitRateLimit } from './rate-limit.ts';

export { AD_PHOTO_VARIANTS, type AdPhotoVariantName } from '../media/images.ts';

/** The largest photo file accepted (before processing). */
export const MAX_AD_PHOTO_BYTES = MAX_IMAGE_BYTES;
/** Photos a member may hold that no ad uses yet (three full ads' worth); more is refused. */
export const MAX_PENDING_AD_PHOTOS = 30;
/** Processing takes about half a second of CPU: sixty an hour is six full ads, plenty for a person. */
export const AD_PHOTO_UPLOAD_LIMIT = { name: 'ad-photo-upload', limit: 60, windowSeconds: 60 * 60 } as const;
/** Pending photos older than this are removed (`prune-orphan-ad-images`). */
export const ORPHAN_AD_IMAGE_HOURS = 24;

/**
 * The URLs pages and the API name a photo by: the variants every stored photo has. Variants added
 * later (`small`) are reached through a srcset built from what a photo's row says is stored
 * (`adImageSrcSet`), so photos processed before them keep working.
 */
export type AdImageUrls = Record<'thumb' | 'medium' | 'large', string>;
const NAMED_VARIANTS = ['thumb', 'medium', 'large'] as const;

/** A card's photo: its URLs and a srcset of every stored width. */
export type CoverPhoto = AdImageUrls & { srcset: string };

export interface UploadedAdImage {
  id: number;
  /** Of the `large` variant: the biggest stored version (the source if it was smaller). */
  width: number;
  height: number;
  urls: AdImageUrls;
}

type StoredVariant = { name: string; width: number; height: number };
type AdImageRef = Pick<Selectable<AdImagesTable>, 'key' | 'variants'>;

/** The stored variants of a row (`variants` is JSON text on SQLite, jsonb on PostgreSQL). */
function storedVariants(row: AdImageRef): StoredVariant[] {
  const list = toJson<StoredVariant[]>(row.variants, []);
  return Array.isArray(list) ? list : [];
}

/**
 * Storage keys of every file of a row: its recorded variants and, to be safe, every current variant
 * name. Only under `ads/`: whatever a row holds, deleting an ad photo never reaches an avatar.
 */
export function adImageKeys(row: AdImageRef): string[] {
  if (!row.key.startsWith('ads/')) return [];
  const names = new Set<string>([...storedVariants(row).map((v) => v.name), ...AD_PHOTO_VARIANTS.map((v) => v.name)]);
  return [...names].map((name) => `${row.key}-${name}.webp`);
}

/**
 * Public URLs of a photo's variants, for pages and API answers. Without a storage, the local
 * storage's paths (`/uploads/…`), as avatars do.
 */
export function adImageUrls(row: Pick<AdImageRef, 'key'>, storage?: Pick<MediaStorage, 'url'>): AdImageUrls {
  return Object.fromEntries(NAMED_VARIANTS.map((name) => [name, variantUrl(row, name, storage)])) as AdImageUrls;
}

function variantUrl(row: Pick<AdImageRef, 'key'>, name: string, storage?: Pick<MediaStorage, 'url'>): string {
  const key = `${row.key}-${name}.webp`;
  return storage ? storage.url(key) : `${UPLOADS_PUBLIC_PATH}/${key}`;
}

/** The first photo of each ad (by position), as URLs and srcset; ads without photos are absent. */
export async function coverUrls(db: DB, adIds: readonly number[]): Promise<Map<number, CoverPhoto>> {
  const covers = new Map<number, CoverPhoto>();
  if (adIds.length === 0) return covers;
  const rows = await db
    .selectFrom('ad_images')
    .select(['ad_id', 'key', 'variants'])
    .where('ad_id', 'in', adIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    if (r.ad_id !== null && !covers.has(r.ad_id)) covers.set(r.ad_id, { ...adImageUrls(r), srcset: adImageSrcSet(r) });
  }
  return covers;
}

/**
 * A `srcset` value for an `<img>` of the photo (`… 320w, … 480w, … 800w, … 1600w`), from the
 * variants actually stored: a photo processed before a variant existed lacks it, a small source has
 * fewer distinct widths, and srcset must not repeat one.
 */
export function adImageSrcSet(row: AdImageRef, storage?: Pick<MediaStorage, 'url'>): string {
  const seen = new Set<number>();
  return storedVariants(row)
    .filter((v) => typeof v.name === 'string' && /^[a-z]+$/.test(v.name) && Number.isInteger(v.width))
    .sort((a, b) => a.width - b.width)
    .filter((v) => !seen.has(v.width) && seen.add(v.width))
    .map((v) => `${variantUrl(row, v.name, storage)} ${v.width}w`)
    .join(', ');
}

async function deleteFiles(storage: MediaStorage, keys: string[]): Promise<void> {
  // A leftover file is harmless (random key, linked from nowhere); a storage hiccup must not
  // undo what was asked for.
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}

/** How many photos the member holds that no ad uses yet. */
export async function countPendingAdImages(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ad_images')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('ad_id', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function refuseWhenTooManyPending(db: DB, userId: string): Promise<void> {
  if ((await countPendingAdImages(db, userId)) >= MAX_PENDING_AD_PHOTOS) {
    throw new Invalid({ image: [`too-many-pending-photos:${MAX_PENDING_AD_PHOTOS}`] });
  }
}

/**
 * Checks and processes one photo (content-sniffed, ≤ 10 MB, pixel limits, auto-rotated, EXIF/GPS
 * stripped, WebP variants), stores its files and records it as the member's pending photo.
 * Refusals: TooManyRequests (rate limit), Invalid({ image: [code] }) with an image error code or
 * `too-many-pending-photos:<max>`.
 */
export async function uploadAdImage(
  db: DB,
  storage: MediaStorage,
  userId: string,
  bytes: Buffer,
  now = new Date(),
): Promise<UploadedAdImage> {
  await hitRateLimit(db, AD_PHOTO_UPLOAD_LIMIT, userId);
  // Before the expensive part; checked again after it, since other uploads may have finished meanwhile
  // (parallel uploads can still pass together: the cap bounds storage, it is not an exact quota).
  await refuseWhenTooManyPending(db, userId);
  const processed = await processImage(bytes, { variants: AD_PHOTO_VARIANTS, maxBytes: MAX_AD_PHOTO_BYTES });

  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const key = `ads/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
  const keys = processed.variants.map((v) => `${key}-${v.name}.webp`);
  const variants: StoredVariant[] = processed.variants.map((v) => ({ name: v.name, width: v.width, height: v.height }));
  const large = variants.find((v) => v.name === 'large') ?? variants[0];
  let id: number;
  try {
    await Promise.all(processed.variants.map((v, i) => storage.put(keys[i], v.bytes, v.contentType)));
    await refuseWhenTooManyPending(db, userId);
    const row = await db
      .insertInto('ad_images')
      .values({
        ad_id: null,
        user_id: userId,
        position: 0,
        key,
        width: large.width,
        height: large.height,
        variants: JSON.stringify(variants),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(row.id);
  } catch (error) {
    await deleteFiles(storage, keys);
    throw error;
  }
  return { id, width: large.width, height: large.height, urls: adImageUrls({ key }, storage) };
}

/**
 * Deletes one of the member's photos: a pending one, or one on an ad of theirs. Anyone else's
 * photo, or an unknown id, is NotFound (nobody learns which ids exist). The row goes first, then
 * the files. Returns the ad the photo was on (null for a pending one), for the caller to record.
 */
export async function deleteAdImage(
  db: DB,
  storage: MediaStorage,
  userId: string,
  id: number,
): Promise<{ ad_id: number | null }> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFound('errors.not-found');
  return withTransaction(db, async (tx, { afterCommit }) => {
    // Only a pending photo (not yet on an ad): removing a photo from an ad is an edit of the ad,
    // which goes through the ad form (revision, re-review); the photo then becomes pending again.
    const row = await tx
      .selectFrom('ad_images')
      .select(['id', 'ad_id', 'key', 'variants'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('ad_id', 'is', null)
      .executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    const deleted = await tx
      .deleteFrom('ad_images')
      .where('id', '=', row.id)
      .where('user_id', '=', userId)
      // Still pending: a photo attached in between is left alone.
      .where('ad_id', 'is', null)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new NotFound('errors.not-found');
    afterCommit(() => deleteFiles(storage, adImageKeys(row)));
    return { ad_id: row.ad_id === null ? null : Number(row.ad_id) };
  });
}

/**
 * The member's pending photos, oldest first; only `ids` when given (e.g. the ids a re-rendered ad
 * form holds). Someone else's or attached ids are left out.
 */
export async function pendingAdImages(
  db: DB,
  userId: string,
  ids?: readonly number[],
): Promise<{ id: number; width: number; height: number; urls: AdImageUrls }[]> {
  if (ids && ids.length === 0) return [];
  let query = db
    .selectFrom('ad_images')
    .select(['id', 'key', 'width', 'height'])
    .where('user_id', '=', userId)
    .where('ad_id', 'is', null);
  if (ids) query = query.where('id', 'in', [...ids]);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), width: r.width, height: r.height, urls: adImageUrls(r) }));
}

/** Storage keys of every photo a member uploaded, e.g. to delete them with the account. */
export async function userAdImageKeys(db: DB, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('ad_images').select(['key', 'variants']).where('user_id', '=', userId).execute();
  return rows.flatMap(adImageKeys);
}

const PRUNE_BATCH = 500;

/**
 * Deletes pending photos older than `olderThanHours`, rows first and then their files, in batches.
 * A row attached meanwhile is not deleted (the delete re-checks `ad_id is null`). Returns how many
 * photos were removed.
 */
export async function pruneOrphanAdImages(
  db: DB,
  storage: MediaStorage,
  olderThanHours = ORPHAN_AD_IMAGE_HOURS,
  now = Date.now(),
): Promise<number> {
  // ISO text compares correctly with SQLite's ISO timestamps and is cast by PostgreSQL.
  const before = new Date(now - olderThanHours * 3_600_000).toISOString();
  let removed = 0;
  for (;;) {
    const stale = await db
      .selectFrom('ad_images')
      .select('id')
      .where('ad_id', 'is', null)
      .where('held_for_ad_id', 'is', null)
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(PRUNE_BATCH)
      .execute();
    if (stale.length === 0) break;
    const gone = await db
      .deleteFrom('ad_images')
      .where(
        'id',
        'in',
        stale.map((r) => r.id),
      )
      .where('ad_id', 'is', null)
      .where('held_for_ad_id', 'is', null)
      .returning(['key', 'variants'])
      .execute();
    await deleteFiles(storage, gone.flatMap(adImageKeys));
    removed += gone.length;
    if (stale.length < PRUNE_BATCH) break;
  }
  return removed;
}
