// The sitemap's data (server/domain/sitemap.ts) on SQLite and PostgreSQL: ad chunks by fixed id
// ranges (empty ones left out, found through the ads_sitemap index), the ads of a chunk in keyset
// batches, and the catalogue pages with their last change.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdStatus } from '../../server/db/schema.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import {
  ADS_PER_SITEMAP,
  adChunks,
  adEntries,
  catalogSitemap,
  type SitemapEntry,
  staticEntries,
} from '../../server/domain/sitemap.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString();

describe.each(dialects)('sitemap data on %s', (dialect) => {
  let t: TestDatabase;
  let toyota: { taxonomy: number; category: number };
  let villas: { taxonomy: number; category: number };
  let city: number;

  const addAd = async (id: number, status: AdStatus, minute: number, where = toyota) => {
    await t.db
      .insertInto('ads')
      .values({
        id,
        taxonomy_id: where.taxonomy,
        category_id: where.category,
        city_id: city,
        slug: id % 2 ? `car-${id}` : `سيارة-${id}`,
        title: `Ad ${id}`,
        description: 'An ad of the sitemap test.',
        contact_phone: false,
        contact_whatsapp: false,
        status,
        bumped_at: status === 'published' ? at(minute - 1) : null,
        updated_at: at(minute),
      } as never)
      .execute();
  };
  const all = async (gen: AsyncIterable<SitemapEntry[]>) => {
    const batches: SitemapEntry[][] = [];
    for await (const b of gen) batches.push(b);
    return batches;
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    const car = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    toyota = { taxonomy: car.taxonomy.id, category: car.category.id };
    const home = await t.db
      .selectFrom('categories')
      .select(['id', 'taxonomy_id'])
      .where('parent_id', 'is', null)
      .where('taxonomy_id', '!=', car.taxonomy.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    villas = { taxonomy: home.taxonomy_id, category: home.id };
    // Catalogue edits long before the ads, so the ads date the pages.
    await t.db
      .updateTable('categories')
      .set({ updated_at: at(0) })
      .execute();
    await t.db
      .updateTable('taxonomies')
      .set({ updated_at: at(0) })
      .execute();
    city = (await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.drop());

  it('lists no ad chunk before any ad is published', async () => {
    expect(await adChunks(t.db)).toEqual([]);
    await addAd(1, 'draft', 1);
    expect(await adChunks(t.db)).toEqual([]);
  });

  it('chunks published ads by fixed id ranges, leaving out ranges with none', async () => {
    // span 3: chunk 1 = ids 0–2, chunk 2 = 3–5, chunk 3 = 6–8, chunk 4 = 9–11.
    await addAd(2, 'published', 20);
    await addAd(3, 'deleted', 30);
    await addAd(4, 'pending', 40);
    await addAd(5, 'published', 50);
    await addAd(7, 'rejected', 70);
    await addAd(8, 'sold', 80);
    await addAd(10, 'published', 100);
    await addAd(11, 'published', 90);
    expect(await adChunks(t.db, 3)).toEqual([
      { n: 1, lastmod: at(20) },
      { n: 2, lastmod: at(50) },
      { n: 4, lastmod: at(100) },
    ]);
    // The real span puts all of them in chunk 1, dated by the newest change of a published ad.
    expect(await adChunks(t.db)).toEqual([{ n: 1, lastmod: at(100) }]);
  });

  it('reads a chunk in id order, batch by batch, published ads only', async () => {
    await addAd(6, 'published', 60, villas);
    expect((await all(adEntries(t.db, 1, { span: 3 }))).flat()).toEqual([
      { path: '/motors/toyota/سيارة-2-2', lastmod: at(20) },
    ]);
    expect((await all(adEntries(t.db, 2, { span: 3 }))).flat()).toEqual([
      { path: '/motors/toyota/car-5-5', lastmod: at(50) },
    ]);
    const third = (await all(adEntries(t.db, 3, { span: 3 }))).flat();
    expect(third).toHaveLength(1);
    expect(third[0].path).toMatch(/^\/[a-z0-9-]+\/[a-z0-9-]+\/سيارة-6-6$/);
    const fourth = await all(adEntries(t.db, 4, { span: 3, batch: 1 }));
    expect(fourth.map((b) => b.map((e) => e.path))).toEqual([
      ['/motors/toyota/سيارة-10-10'],
      ['/motors/toyota/car-11-11'],
    ]);
    expect(await all(adEntries(t.db, 5, { span: 3 }))).toEqual([]);
    // Past the largest id an integer column holds: nothing, not an error.
    expect(await all(adEntries(t.db, 214_748))).toEqual([]);
    expect(await all(adEntries(t.db, 214_749))).toEqual([]);
    expect(await all(adEntries(t.db, 999_999_999))).toEqual([]);
    const whole = (await all(adEntries(t.db, 1, { batch: 2 }))).flat();
    expect(whole.map((e) => e.path.split('-').pop())).toEqual(['2', '5', '6', '10', '11']);
  });

  it('dates an ad by the later of its last edit and last bump', async () => {
    await t.db
      .updateTable('ads')
      .set({ bumped_at: at(500) })
      .where('id', '=', 11)
      .execute();
    expect((await all(adEntries(t.db, 4, { span: 3 }))).flat()).toEqual([
      { path: '/motors/toyota/سيارة-10-10', lastmod: at(100) },
      { path: '/motors/toyota/car-11-11', lastmod: at(500) },
    ]);
  });

  it('leaves out the ads of an inactive category', async () => {
    await t.db.updateTable('categories').set({ active: false }).where('id', '=', villas.category).execute();
    try {
      expect(await all(adEntries(t.db, 3, { span: 3 }))).toEqual([]);
    } finally {
      await t.db.updateTable('categories').set({ active: true }).where('id', '=', villas.category).execute();
    }
  });

  it('lists active taxonomies and categories, dated by the newest ad below them', async () => {
    const { entries, newestAd } = await catalogSitemap(t.db);
    const byPath = new Map(entries.map((e) => [e.path, e.lastmod]));
    expect(byPath.has('/motors')).toBe(true);
    expect(byPath.has('/motors/cars')).toBe(true);
    expect(byPath.has('/motors/toyota')).toBe(true);
    // Ad 11 was bumped last (minute 500): its category, the ancestors and the taxonomy move with it.
    expect(newestAd).toBe(at(500));
    expect(byPath.get('/motors/toyota')).toBe(at(500));
    expect(byPath.get('/motors/cars')).toBe(at(500));
    expect(byPath.get('/motors')).toBe(at(500));
    // Taxonomy first, each category once.
    expect(entries[0].path).toBe('/motors');
    expect(new Set(entries.map((e) => e.path)).size).toBe(entries.length);
    await t.db.updateTable('categories').set({ active: false }).where('slug', '=', 'toyota').execute();
    try {
      const after = (await catalogSitemap(t.db)).entries.map((e) => e.path);
      expect(after).not.toContain('/motors/toyota');
      expect(after).toContain('/motors/cars');
    } finally {
      await t.db.updateTable('categories').set({ active: true }).where('slug', '=', 'toyota').execute();
    }
  });

  it('dates the home page by the newest ad and the information pages by the build', () => {
    const pages = staticEntries('2025-02-01T00:00:00.000Z', at(500));
    expect(pages.map((p) => p.path)).toEqual([
      '/',
      '/posts',
      '/faq',
      '/about',
      '/terms',
      '/privacy',
      '/support',
      '/contact',
    ]);
    expect(pages[0].lastmod).toBe('2025-02-01T00:00:00.000Z');
    expect(staticEntries('2024-01-01T00:00:00.000Z', at(500))[0].lastmod).toBe(at(500));
  });

  it('finds the chunks through the ads_sitemap index, one probe each', async () => {
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ detail: string }>`explain query plan
        select max(updated_at) from ads where status = 'published' and id / ${sql.lit(ADS_PER_SITEMAP)} = 3`.execute(
        t.db,
      );
      expect(rows.map((r) => r.detail).join('\n')).toMatch(/SEARCH ads USING (COVERING )?INDEX ads_sitemap/);
    } else {
      await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain
          select max(updated_at) from ads where status = 'published' and id / ${sql.lit(ADS_PER_SITEMAP)} = 3`.execute(
          trx,
        );
        expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('ads_sitemap');
      });
    }
  });
});
