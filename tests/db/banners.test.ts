// Banners on every dialect (server/domain/banners/): which banners a place shows (schedule, switch,
// targeting by taxonomy, category trail and city, order), impressions and clicks kept per banner per
// day as upserts, the click leading only to the banner's own link, and the back office's changes
// (revisions, files, the page cache told which placements changed).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toNumber } from '../../server/db/values.ts';
import {
  type BannerInput,
  bannerStats,
  deleteBanners,
  listBanners,
  saveBanner,
  setBannersActive,
} from '../../server/domain/banners/admin.ts';
import { onBannersChange } from '../../server/domain/banners/changes.ts';
import { countImpressions, followBanner, liveBanners } from '../../server/domain/banners/public.ts';
import { Invalid } from '../../server/domain/errors.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 90 } } })
    .png()
    .toBuffer();

describe.each(dialects)('banners on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let actor: { id: string };
  let wide: Buffer;
  const storage = () => createLocalStorage(dir);
  const ids: Record<string, number> = {};
  const NOW = new Date('2026-06-15T10:00:00Z');

  const idOf = async (table: 'taxonomies' | 'categories' | 'cities', slug: string) =>
    Number((await t.db.selectFrom(table).select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id);

  const save = (input: Partial<BannerInput>, id: number | null = null) =>
    saveBanner(
      t.db,
      storage(),
      actor,
      id,
      {
        title_ar: 'بانر',
        link: '/posts',
        placement: 'listing-top',
        active: true,
        uploads: id === null ? { 'ar-desktop': wide } : {},
        remove: [],
        ...input,
      },
      { maxImageBytes: 5 * 1024 * 1024, now: NOW },
    );

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-banners-'));
    actor = { id: (await insertMember(t.db, { name: 'Banner staff' })).id };
    wide = await png(1600, 500);
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the images through the image pipeline and records a revision', async () => {
    const id = await save({ title_ar: 'الأول', placement: 'home-hero', position: 2, link: 'https://example.ly/a' });
    ids.hero = id;
    const row = await t.db.selectFrom('banners').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const images = typeof row.images === 'string' ? JSON.parse(row.images) : row.images;
    expect(images['ar-desktop'].key).toMatch(/^banners\/\d{4}\/\d{2}\/[a-f0-9]{32}$/);
    expect(images['ar-desktop'].variants.map((v: { width: number }) => v.width)).toEqual([480, 960, 1600]);
    const files = readdirSync(path.join(dir, path.dirname(images['ar-desktop'].key)));
    expect(files.filter((f) => f.startsWith(path.basename(images['ar-desktop'].key)))).toHaveLength(3);
    const revisions = await t.db
      .selectFrom('revisions')
      .select(['action', 'changes'])
      .where('subject_type', '=', 'banner')
      .where('subject_id', '=', String(id))
      .execute();
    expect(revisions.map((r) => r.action)).toEqual(['created']);
  });

  it('refuses a file that is not an image, by its content, on its own input', async () => {
    const error = await save({
      uploads: { 'ar-desktop': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect(error.errors).toEqual({ image_ar_desktop: ['image-unsupported-type'] });
  });

  it('refuses targeting that does not exist or a category outside its taxonomy', async () => {
    const cars = await idOf('categories', 'cars');
    const property = await idOf('taxonomies', 'property');
    const error = await save({ taxonomy: String(property), category: String(cars) }).catch((e) => e);
    expect(error.errors).toEqual({ category: ['category-outside-taxonomy'] });
    const unknown = await save({ city: '999999' }).catch((e) => e);
    expect(unknown.errors).toEqual({ city: ['in'] });
  });

  it('shows the banners of a place within their schedule, switched on, in order', async () => {
    const second = await save({ title_ar: 'الثاني', placement: 'home-hero', position: 1, starts_on: '2026-06-15' });
    const later = await save({ title_ar: 'لاحقا', placement: 'home-hero', starts_on: '2026-06-16' });
    const ended = await save({ title_ar: 'انتهى', placement: 'home-hero', ends_on: '2026-06-14' });
    const lastDay = await save({
      title_ar: 'اليوم الأخير',
      placement: 'home-hero',
      position: 3,
      ends_on: '2026-06-15',
    });
    const off = await save({ title_ar: 'مطفأ', placement: 'home-hero', active: false });
    const shown = async (at: Date) => (await liveBanners(t.db, 'home-hero', {}, 'ar', at)).map((b) => b.id);
    expect(await shown(NOW)).toEqual([second, ids.hero, lastDay]);
    // Days are Libyan days (UTC+2): the next one starts at 22:00 UTC.
    expect(await shown(new Date('2026-06-15T21:59:59Z'))).toEqual([second, ids.hero, lastDay]);
    expect(await shown(new Date('2026-06-15T22:00:00Z'))).toEqual([later, second, ids.hero]);
    // Starting at midnight in Libya, not at midnight UTC.
    expect(await shown(new Date('2026-06-14T21:59:00Z'))).toEqual([ended, ids.hero, lastDay]);
    expect(await setBannersActive(t.db, actor, [off], true)).toBe(1);
    expect(await shown(NOW)).toContain(off);
    await setBannersActive(t.db, actor, [off], false);
    expect(await shown(NOW)).not.toContain(off);
  });

  it('targets listing and ad places by taxonomy, category trail and city; home ignores targeting', async () => {
    const motors = await idOf('taxonomies', 'motors');
    const cars = await idOf('categories', 'cars');
    const tripoli = await idOf('cities', 'tripoli');
    const everyone = await save({ title_ar: 'للجميع', placement: 'ad-sidebar', position: 5 });
    const motorsOnly = await save({
      title_ar: 'محركات',
      placement: 'ad-sidebar',
      taxonomy: String(motors),
      position: 4,
    });
    const carsOnly = await save({ title_ar: 'سيارات', placement: 'ad-sidebar', category: String(cars), position: 3 });
    const carsTripoli = await save({
      title_ar: 'سيارات طرابلس',
      placement: 'ad-sidebar',
      category: String(cars),
      city: String(tripoli),
      position: 2,
    });
    // The category's taxonomy is taken when only the category is given.
    const row = await t.db.selectFrom('banners').select('taxonomy_id').where('id', '=', carsOnly).executeTakeFirst();
    expect(Number(row?.taxonomy_id)).toBe(motors);
    // PLACEMENT_LIMIT is one for the sidebar: look at the order of all candidates through the limit one by one.
    const first = async (page: Parameters<typeof liveBanners>[2]) =>
      (await liveBanners(t.db, 'ad-sidebar', page, 'en', NOW)).map((b) => b.id)[0];
    expect(await first({ taxonomy: 'motors', categories: ['cars', 'toyota'], city: { id: tripoli } })).toBe(
      carsTripoli,
    );
    expect(await first({ taxonomy: 'motors', categories: ['cars', 'toyota'], city: { slug: 'benghazi' } })).toBe(
      carsOnly,
    );
    expect(await first({ taxonomy: 'motors', categories: ['motorcycles'], city: null })).toBe(motorsOnly);
    expect(await first({ taxonomy: 'property', categories: [], city: { slug: 'tripoli' } })).toBe(everyone);
    expect(await first({})).toBe(everyone);
    // A home placement stores no targeting and shows everywhere on the home page.
    const home = await save({ title_ar: 'داخل الرئيسية', placement: 'home-inline', category: String(cars) });
    const stored = await t.db
      .selectFrom('banners')
      .select(['category_id', 'taxonomy_id'])
      .where('id', '=', home)
      .executeTakeFirst();
    expect(stored).toEqual({ category_id: null, taxonomy_id: null });
    expect((await liveBanners(t.db, 'home-inline', {}, 'ar', NOW)).map((b) => b.id)).toEqual([home]);
  });

  it('picks images by language and screen with their fallbacks', async () => {
    const narrow = await png(800, 400);
    const id = await save({
      title_ar: 'صور',
      title_en: 'Pictures',
      placement: 'home-inline',
      position: -1,
      uploads: { 'ar-desktop': wide, 'ar-mobile': narrow },
    });
    const [ar] = await liveBanners(t.db, 'home-inline', {}, 'ar', NOW);
    const [en] = await liveBanners(t.db, 'home-inline', {}, 'en', NOW);
    expect(ar?.id).toBe(id);
    expect(ar?.alt).toBe('صور');
    expect(en?.alt).toBe('Pictures');
    // English has no images: it takes the Arabic ones, wide and narrow.
    expect(en?.desktop.src).toBe(ar?.desktop.src);
    expect(ar?.mobile?.width).toBe(800);
    expect(en?.mobile?.src).toBe(ar?.mobile?.src);
    expect(ar?.desktop.srcset).toMatch(/-small\.webp 480w, .*-medium\.webp 960w, .*-large\.webp 1600w$/);
    expect(ar?.href).toBe(`/b/${id}`);
    expect(en?.href).toBe(`/en/b/${id}`);
    // An English wide image is used for English narrow screens before the Arabic narrow one.
    const same = { title_ar: 'صور', title_en: 'Pictures', placement: 'home-inline' as const, position: -1 };
    await save({ ...same, uploads: { 'en-desktop': wide } }, id);
    const [en2] = await liveBanners(t.db, 'home-inline', {}, 'en', NOW);
    expect(en2?.desktop.src).not.toBe(ar?.desktop.src);
    expect(en2?.mobile).toBeNull();
    // Removing it falls back again, and its files go.
    await save({ ...same, remove: ['en-desktop'] }, id);
    const [en3] = await liveBanners(t.db, 'home-inline', {}, 'en', NOW);
    expect(en3?.desktop.src).toBe(ar?.desktop.src);
  });

  it('counts impressions in one upsert per report, per banner per day, only of banners shown', async () => {
    const ended = await save({ title_ar: 'قديم', placement: 'home-inline', ends_on: '2026-06-01' });
    expect(await countImpressions(t.db, [ids.hero as number, ids.hero as number, ended, 987654], NOW)).toEqual([
      ids.hero,
    ]);
    await countImpressions(t.db, [ids.hero as number], NOW);
    await countImpressions(t.db, [ids.hero as number], new Date('2026-06-15T23:00:00Z')); // the 16th in Libya
    const rows = await t.db
      .selectFrom('banner_stats')
      .select(['day', 'impressions', 'clicks'])
      .where('banner_id', '=', ids.hero as number)
      .orderBy('day')
      .execute();
    expect(rows.map((r) => [r.day, toNumber(r.impressions), toNumber(r.clicks)])).toEqual([
      ['2026-06-15', 2, 0],
      ['2026-06-16', 1, 0],
    ]);
    expect(await t.db.selectFrom('banner_stats').select('banner_id').where('banner_id', '=', ended).execute()).toEqual(
      [],
    );
  });

  it('a click leads to the banner’s own link only and counts when the banner is shown', async () => {
    expect(await followBanner(t.db, ids.hero as number, true, NOW)).toBe('https://example.ly/a');
    expect(await followBanner(t.db, ids.hero as number, false, NOW)).toBe('https://example.ly/a');
    expect(await followBanner(t.db, 987654, true, NOW)).toBeNull();
    const stats = await bannerStats(t.db, ids.hero as number, 30, new Date('2026-06-16T08:00:00Z'));
    expect(stats.days).toHaveLength(30);
    expect(stats.days.at(-1)).toEqual({ day: '2026-06-16', impressions: 1, clicks: 0 });
    expect(stats.days.at(-2)).toEqual({ day: '2026-06-15', impressions: 2, clicks: 1 });
    expect(stats.total).toEqual({ impressions: 3, clicks: 1 });
    // An ended banner still leads to its link, uncounted.
    const ended = await save({ title_ar: 'منته', link: '/about', ends_on: '2026-06-01' });
    expect(await followBanner(t.db, ended, true, NOW)).toBe('/about');
    expect((await bannerStats(t.db, ended, 30, NOW)).total.clicks).toBe(0);
  });

  it('lists with search, filters and keyset pages, totals included', async () => {
    const list = await listBanners(
      t.db,
      { q: 'الأول', sort: 'position', dir: 'asc', filters: { placement: 'home-hero', state: 'live' }, after: null },
      NOW,
    );
    expect(list.rows.map((r) => [r.id, r.impressions, r.clicks, r.state])).toEqual([[ids.hero, 3, 1, 'live']]);
    const scheduled = await listBanners(
      t.db,
      { q: '', sort: 'position', dir: 'asc', filters: { state: 'scheduled' }, after: null },
      NOW,
    );
    expect(scheduled.rows.map((r) => r.title_ar)).toEqual(['لاحقا']);
  });

  it('tells the page cache which placements changed, after the commit; deleting removes files and figures', async () => {
    const heard: string[][] = [];
    const off = onBannersChange((tags) => heard.push(tags));
    try {
      const id = await save({ placement: 'listing-top' });
      await save({ placement: 'ad-sidebar' }, id);
      const row = await t.db.selectFrom('banners').select('images').where('id', '=', id).executeTakeFirstOrThrow();
      const key = (typeof row.images === 'string' ? JSON.parse(row.images) : row.images)['ar-desktop'].key as string;
      await countImpressions(t.db, [id], NOW);
      expect(await deleteBanners(t.db, storage(), actor, [id, 987654])).toBe(1);
      expect(heard).toEqual([
        ['banners:listing-top'],
        ['banners:listing-top', 'banners:ad-sidebar'],
        ['banners:ad-sidebar'],
      ]);
      expect(await t.db.selectFrom('banner_stats').select('day').where('banner_id', '=', id).execute()).toEqual([]);
      const left = readdirSync(path.join(dir, path.dirname(key))).filter((f) => f.startsWith(path.basename(key)));
      expect(left).toEqual([]);
      const actions = await t.db
        .selectFrom('revisions')
        .select('action')
        .where('subject_type', '=', 'banner')
        .where('subject_id', '=', String(id))
        .orderBy('id')
        .execute();
      expect(actions.map((a) => a.action)).toEqual(['created', 'updated', 'deleted']);
    } finally {
      off();
    }
  });
});
