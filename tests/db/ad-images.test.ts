// Ad photos on both dialects: uploads become the member's pending rows with their files, the cap
// on pending photos and the upload rate limit, who may delete what, and the orphan pruning.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AD_PHOTO_UPLOAD_LIMIT,
  adImageKeys,
  adImageSrcSet,
  adImageUrls,
  countPendingAdImages,
  deleteAdImage,
  MAX_PENDING_AD_PHOTOS,
  pendingAdImages,
  pruneOrphanAdImages,
  uploadAdImage,
  userAdImageKeys,
} from '../../server/domain/ad-images.ts';
import { Invalid, NotFound, TooManyRequests } from '../../server/domain/errors.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const HOUR = 3_600_000;

/** A 900×600 JPEG: wider than the thumb and medium variants, narrower than large. */
const jpeg = () =>
  sharp({
    create: {
      width: 900,
      height: 600,
      channels: 3,
      background: '#c84',
      noise: { type: 'gaussian', mean: 120, sigma: 25 },
    },
  })
    .jpeg()
    .toBuffer();

describe.each(dialects)('ad photos on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let photo: Buffer;
  let adOf: (userId: string) => Promise<number>;
  const storage = () => createLocalStorage(path.join(dir, 'uploads'));
  const file = (key: string) => path.join(dir, 'uploads', key);
  const allFiles = (): string[] => {
    const root = path.join(dir, 'uploads');
    return existsSync(root)
      ? (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.webp'))
      : [];
  };

  let n = 0;
  async function member(): Promise<string> {
    const id = `member-${dialect}-${++n}-${Math.floor(Math.random() * 1e6)}`;
    await t.db
      .insertInto('users')
      .values({ id, name: id, email: `${id}@example.ly`, locale: 'ar' } as never)
      .execute();
    return id;
  }

  /** A pending (or attached) row without files, `hoursAgo` old: for the cap and the pruning. */
  async function row(userId: string, opts: { hoursAgo?: number; adId?: number | null } = {}) {
    const created = new Date(Date.now() - (opts.hoursAgo ?? 0) * HOUR);
    const r = await t.db
      .insertInto('ad_images')
      .values({
        user_id: userId,
        ad_id: opts.adId ?? null,
        key: `ads/2020/01/${Math.random().toString(16).slice(2).padEnd(16, '0')}`,
        width: 10,
        height: 10,
        variants: JSON.stringify([{ name: 'thumb', width: 10, height: 10 }]),
        created_at: created,
      })
      .returning(['id', 'key', 'variants'])
      .executeTakeFirstOrThrow();
    return { id: Number(r.id), keys: adImageKeys(r) };
  }

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-ad-images-'));
    photo = await jpeg();
    const taxonomy = await t.db
      .insertInto('taxonomies')
      .values({ slug: 'motors', name_ar: 'مركبات', name_en: 'Motors', position: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const category = await t.db
      .insertInto('categories')
      .values({
        taxonomy_id: taxonomy.id,
        slug: 'cars',
        name_ar: 'سيارات',
        name_en: 'Cars',
        position: 1,
        depth: 0,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const city = await t.db
      .insertInto('cities')
      .values({ slug: 'tripoli', name_ar: 'طرابلس', name_en: 'Tripoli', lat: 32.8872, lng: 13.1913, position: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    adOf = async (userId) => {
      const ad = await t.db
        .insertInto('ads')
        .values({
          user_id: userId,
          taxonomy_id: taxonomy.id,
          category_id: category.id,
          city_id: city.id,
          slug: 'a-car',
          title: 'A car',
          description: 'A good car.',
          contact_phone: false,
          contact_whatsapp: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(ad.id);
    };
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('processes an upload into four WebP files and a pending row of the member', async () => {
    const userId = await member();
    const up = await uploadAdImage(t.db, storage(), userId, photo, new Date('2026-03-05T12:00:00Z'));
    expect(up.urls.thumb).toMatch(/^\/uploads\/ads\/2026\/03\/[a-f0-9]{32}-thumb\.webp$/);
    expect(up.urls.medium).toBe(up.urls.thumb.replace('-thumb.', '-medium.'));
    expect(up.urls.large).toBe(up.urls.thumb.replace('-thumb.', '-large.'));
    // Never upscaled: the 900 px source is the large variant as it is.
    expect({ width: up.width, height: up.height }).toEqual({ width: 900, height: 600 });

    const r = await t.db.selectFrom('ad_images').selectAll().where('id', '=', up.id).executeTakeFirstOrThrow();
    expect(r).toMatchObject({ user_id: userId, ad_id: null, width: 900, height: 600 });
    expect(r.key).toMatch(/^ads\/2026\/03\/[a-f0-9]{32}$/);
    const variants = typeof r.variants === 'string' ? JSON.parse(r.variants) : r.variants;
    expect(variants).toEqual([
      { name: 'thumb', width: 320, height: 213 },
      { name: 'small', width: 480, height: 320 },
      { name: 'medium', width: 800, height: 533 },
      { name: 'large', width: 900, height: 600 },
    ]);
    expect(adImageUrls(r)).toEqual(up.urls);
    // The card's width: not one of the URLs every photo has, only in the srcset of those that have it.
    const small = up.urls.thumb.replace('-thumb.', '-small.');
    expect(adImageSrcSet(r)).toBe(
      `${up.urls.thumb} 320w, ${small} 480w, ${up.urls.medium} 800w, ${up.urls.large} 900w`,
    );
    for (const name of ['thumb', 'small', 'medium', 'large']) {
      const meta = await sharp(file(`${r.key}-${name}.webp`)).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(variants.find((v: { name: string }) => v.name === name).width);
    }
    expect(await pendingAdImages(t.db, userId)).toEqual([{ id: up.id, width: 900, height: 600, urls: up.urls }]);
    expect(await pendingAdImages(t.db, userId, [up.id, 999_999])).toHaveLength(1);
    expect(await pendingAdImages(t.db, await member(), [up.id])).toEqual([]);
    expect((await userAdImageKeys(t.db, userId)).sort()).toEqual(
      ['large', 'medium', 'small', 'thumb'].map((v) => `${r.key}-${v}.webp`),
    );
  });

  it('refuses a file that is not an image and keeps nothing of it', async () => {
    const userId = await member();
    const before = allFiles().length;
    const error = await uploadAdImage(t.db, storage(), userId, Buffer.from('plain text, renamed photo.jpg')).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(Invalid);
    expect(error.errors).toEqual({ image: ['image-unsupported-type'] });
    expect(allFiles().length).toBe(before);
    expect(await countPendingAdImages(t.db, userId)).toBe(0);
  });

  it(`refuses a member holding ${MAX_PENDING_AD_PHOTOS} pending photos; attached ones do not count`, async () => {
    const userId = await member();
    const adId = await adOf(userId);
    for (let i = 0; i < MAX_PENDING_AD_PHOTOS - 1; i++) await row(userId);
    for (let i = 0; i < 5; i++) await row(userId, { adId });
    // Someone else's pending photos are theirs.
    const other = await member();
    await row(other);
    expect(await countPendingAdImages(t.db, userId)).toBe(MAX_PENDING_AD_PHOTOS - 1);

    await uploadAdImage(t.db, storage(), userId, photo);
    expect(await countPendingAdImages(t.db, userId)).toBe(MAX_PENDING_AD_PHOTOS);
    const files = allFiles().length;
    const error = await uploadAdImage(t.db, storage(), userId, photo).catch((e) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect(error.errors).toEqual({ image: [`too-many-pending-photos:${MAX_PENDING_AD_PHOTOS}`] });
    expect(await countPendingAdImages(t.db, userId)).toBe(MAX_PENDING_AD_PHOTOS);
    expect(allFiles().length).toBe(files);

    // Attaching (what saving the ad does) makes room again.
    const one = await t.db
      .selectFrom('ad_images')
      .select('id')
      .where('user_id', '=', userId)
      .where('ad_id', 'is', null)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('ad_images').set({ ad_id: adId, position: 5 }).where('id', '=', one.id).execute();
    await expect(uploadAdImage(t.db, storage(), userId, photo)).resolves.toMatchObject({ width: 900 });
  });

  it('rate-limits uploads per member', async () => {
    const userId = await member();
    await t.db
      .insertInto('rate_limits')
      .values({
        key: `${AD_PHOTO_UPLOAD_LIMIT.name}:${userId}`,
        hits: AD_PHOTO_UPLOAD_LIMIT.limit,
        reset_at: Date.now() + HOUR,
      })
      .execute();
    const error = await uploadAdImage(t.db, storage(), userId, photo).catch((e) => e);
    expect(error).toBeInstanceOf(TooManyRequests);
    expect(error.retryAfter).toBeGreaterThan(3500);
    expect(await countPendingAdImages(t.db, userId)).toBe(0);
  });

  it('lets only the owner delete: pending, or on an ad of theirs', async () => {
    const owner = await member();
    const other = await member();
    const up = await uploadAdImage(t.db, storage(), owner, photo);
    const keys = Object.values(up.urls).map((url) => url.replace('/uploads/', ''));
    expect(keys).toHaveLength(3);

    await expect(deleteAdImage(t.db, storage(), other, up.id)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteAdImage(t.db, storage(), owner, 987_654)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteAdImage(t.db, storage(), owner, Number.NaN)).rejects.toBeInstanceOf(NotFound);
    for (const key of keys) expect(existsSync(file(key))).toBe(true);

    expect(await deleteAdImage(t.db, storage(), owner, up.id)).toEqual({ ad_id: null });
    expect(await t.db.selectFrom('ad_images').select('id').where('id', '=', up.id).executeTakeFirst()).toBeUndefined();
    for (const key of keys) expect(existsSync(file(key))).toBe(false);
    await expect(deleteAdImage(t.db, storage(), owner, up.id)).rejects.toBeInstanceOf(NotFound);

    // A photo already on an ad, even the owner's own, is removed by editing the ad, not here.
    const ownAd = await adOf(owner);
    const attached = await row(owner, { adId: ownAd });
    await expect(deleteAdImage(t.db, storage(), owner, attached.id)).rejects.toBeInstanceOf(NotFound);
    expect(
      await t.db.selectFrom('ad_images').select('id').where('id', '=', attached.id).executeTakeFirst(),
    ).toBeDefined();
    const foreign = await row(owner, { adId: await adOf(other) });
    await expect(deleteAdImage(t.db, storage(), owner, foreign.id)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteAdImage(t.db, storage(), other, foreign.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('prunes pending photos older than a day with their files, and nothing else', async () => {
    const userId = await member();
    const adId = await adOf(userId);
    // Real files for an old pending upload: backdate its row.
    const old = await uploadAdImage(t.db, storage(), userId, photo);
    await t.db
      .updateTable('ad_images')
      .set({ created_at: new Date(Date.now() - 25 * HOUR) })
      .where('id', '=', old.id)
      .execute();
    const oldRow = await t.db
      .selectFrom('ad_images')
      .select(['key', 'variants'])
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    const oldKeys = adImageKeys(oldRow);
    for (const key of oldKeys) expect(existsSync(file(key))).toBe(true);
    const older = await row(userId, { hoursAgo: 24 * 30 });
    const recent = await row(userId, { hoursAgo: 23 });
    const attachedOld = await row(userId, { hoursAgo: 24 * 30, adId });
    const fresh = await uploadAdImage(t.db, storage(), userId, photo);

    // Other tests' rows are younger than a day, so exactly these two go.
    expect(await pruneOrphanAdImages(t.db, storage())).toBe(2);
    const left = (await t.db.selectFrom('ad_images').select('id').where('user_id', '=', userId).execute()).map((r) =>
      Number(r.id),
    );
    expect(left.sort((a, b) => a - b)).toEqual([recent.id, attachedOld.id, fresh.id].sort((a, b) => a - b));
    expect(left).not.toContain(old.id);
    expect(left).not.toContain(older.id);
    for (const key of oldKeys) expect(existsSync(file(key))).toBe(false);
    for (const url of Object.values(fresh.urls)) expect(existsSync(file(url.replace('/uploads/', '')))).toBe(true);
    expect(await pruneOrphanAdImages(t.db, storage())).toBe(0);

    // A shorter age takes the 23-hour-old one too.
    expect(await pruneOrphanAdImages(t.db, storage(), 12)).toBe(1);
    expect(
      await t.db.selectFrom('ad_images').select('id').where('id', '=', recent.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});
