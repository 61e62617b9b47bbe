// Demo ads and bulk ads (server/db/seed/ads.ts): every status and taxonomy, values that pass the
// ad form's own schema, counters equal to a recount, idempotence, photos stored like uploads, and
// bulk mode adding exactly N ads.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adFormSchema } from '~/lib/validation/ads.ts';
import { DEMO_SELLERS, restoreAfterBulkLoad, seedBulkAds, seedDemoAds } from '../../server/db/seed/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { matchAdText } from '../../server/db/text-search.ts';
import { toBool, toJson, toNumber } from '../../server/db/values.ts';
import { recountTaxonomy, recountUserAds } from '../../server/domain/ads/bookkeeping.ts';
import { countAfresh, storedCounts } from '../../server/domain/ads/counts.ts';
import { ACTIVE_STATUSES, AD_RULES } from '../../server/domain/ads/rules.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { adPlaces, adSearchRow, indexAdText, loadCatalogueWords } from '../../server/domain/search/text-index.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const STATUSES = ['draft', 'pending', 'published', 'rejected', 'sold', 'expired', 'archived', 'deleted'];
const DAY = 86_400_000;
const now = new Date();

describe.each(dialects)('demo and bulk ads on %s', (dialect) => {
  let t: TestDatabase;
  let memberId: string;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    // The demo member (created by the server with a password; a plain row is enough here).
    memberId = `member-${Date.now()}`;
    await t.db
      .insertInto('users')
      .values({ id: memberId, name: 'سالم بن علي', email: 'user@souq.test' } as never)
      .execute();
  });
  afterAll(() => t.drop());

  const ads = () =>
    t.db
      .selectFrom('ads')
      .innerJoin('categories', 'categories.id', 'ads.category_id')
      .selectAll('ads')
      .select('categories.slug as category_slug')
      .orderBy('ads.id')
      .execute();

  it('seeds varied demo ads in every status, taxonomy and language, once', async () => {
    const report = await seedDemoAds(t, { count: 160, now });
    expect(report).toMatchObject({ ads: 160, photos: 0 });
    const rows = await ads();
    expect(rows).toHaveLength(160);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(STATUSES));
    expect(rows.filter((r) => r.status === 'published').length).toBeGreaterThan(rows.length / 2);
    const taxonomies = await t.db.selectFrom('taxonomies').select('id').execute();
    expect(new Set(rows.map((r) => r.taxonomy_id)).size).toBe(taxonomies.length);
    expect(new Set(rows.map((r) => r.city_id)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(rows.map((r) => r.category_id)).size).toBeGreaterThanOrEqual(40);
    const arabic = rows.filter((r) => /[\u0600-\u06FF]/.test(r.title));
    expect(arabic.length).toBeGreaterThan(rows.length / 3);
    expect(rows.length - arabic.length).toBeGreaterThan(rows.length / 5);
    // Sellers: the demo shops and people, and the demo member with one ad of several statuses.
    const sellers = await t.db.selectFrom('users').select(['id', 'email']).execute();
    for (const s of DEMO_SELLERS) expect(sellers.map((u) => u.email)).toContain(s.email);
    const own = rows.filter((r) => r.user_id === memberId).map((r) => r.status);
    expect(own.sort()).toEqual(['draft', 'expired', 'published', 'rejected', 'sold']);
    expect(own.filter((s) => ACTIVE_STATUSES.includes(s)).length).toBeLessThan(AD_RULES.freeActiveAds);

    // A second run adds nothing.
    expect(await seedDemoAds(t, { count: 160, now })).toBeNull();
    expect(await ads()).toHaveLength(160);
  });

  it('gives every ad dates, history and fields that fit its status', async () => {
    const history = await t.db.selectFrom('ad_status_history').selectAll().orderBy('id').execute();
    const time = (v: unknown) => (v === null ? null : new Date(v as string).getTime());
    const byAd = Map.groupBy(history, (h) => h.ad_id);
    const rows = await ads();
    expect(rows.filter((r) => toNumber(r.views) > 0).length).toBeGreaterThan(rows.length / 2);
    for (const ad of rows) {
      const events = byAd.get(ad.id) ?? [];
      expect(events.length, `history of ${ad.id}`).toBeGreaterThan(0);
      expect(events[0].from_status).toBeNull();
      expect(events[events.length - 1].to_status).toBe(ad.status);
      const created = time(ad.created_at) as number;
      expect(created).toBeLessThanOrEqual(now.getTime());
      expect(created).toBeGreaterThan(now.getTime() - 70 * DAY);
      if (!['expired', 'archived'].includes(ad.status)) expect(created).toBeGreaterThan(now.getTime() - 30 * DAY);
      const published = time(ad.published_at);
      if (['draft', 'pending', 'rejected'].includes(ad.status)) expect(published).toBeNull();
      else {
        expect(published).toBeGreaterThanOrEqual(created);
        expect(time(ad.expires_at)).toBe((published as number) + AD_RULES.lifetimeDays * DAY);
      }
      if (ad.status === 'published') expect(time(ad.expires_at)).toBeGreaterThan(now.getTime());
      if (ad.status === 'expired') expect(time(ad.expires_at)).toBeLessThanOrEqual(now.getTime());
      expect(ad.rejection_reason !== null).toBe(ad.status === 'rejected');
      expect(ad.deleted_at !== null).toBe(ad.status === 'deleted');
      if (published === null) expect(toNumber(ad.views)).toBe(0);
      expect(ad.slug).toMatch(/^[\p{L}\p{N}-]+$/u);
    }
  });

  it('writes attribute values that pass the category’s ad form schema', async () => {
    const rows = await ads();
    const values = Map.groupBy(
      await t.db.selectFrom('ad_attribute_values').selectAll().orderBy('id').execute(),
      (v) => v.ad_id,
    );
    const areas = new Map(
      (await t.db.selectFrom('areas').select(['id', 'city_id']).execute()).map((a) => [a.id, a.city_id]),
    );
    const cache = new Map<string, Attribute[]>();
    for (const ad of rows) {
      let attributes = cache.get(ad.category_slug);
      if (!attributes) {
        attributes = await listCategoryAttributes(t.db, ad.category_slug);
        cache.set(ad.category_slug, attributes);
      }
      const mine = values.get(ad.id) ?? [];
      const attrs: Record<string, unknown> = {};
      for (const a of attributes) {
        const of = mine.filter((v) => v.attribute_id === a.id);
        if (of.length === 0) continue;
        const v = of[0];
        if (a.type === 'multiselect') attrs[a.key] = of.map((x) => x.value_option);
        else if (a.type === 'select') attrs[a.key] = v.value_option;
        else if (a.type === 'boolean') attrs[a.key] = toBool(v.value_bool) ? 'on' : undefined;
        else if (a.type === 'number' || a.type === 'year') attrs[a.key] = String(v.value_number);
        else if (a.type === 'date') attrs[a.key] = v.value_date;
        else attrs[a.key] = v.value_text;
      }
      // No value row belongs to an attribute the category does not have.
      expect(mine.every((v) => attributes.some((a) => a.id === v.attribute_id))).toBe(true);
      const form = {
        title: ad.title,
        description: ad.description,
        price_type: ad.price_type,
        price: ad.price === null ? '' : String(ad.price),
        currency: ad.currency,
        city: String(ad.city_id),
        area: ad.area_id === null ? '' : String(ad.area_id),
        lat: ad.lat === null ? '' : String(ad.lat),
        lng: ad.lng === null ? '' : String(ad.lng),
        contact_phone: toBool(ad.contact_phone) ? 'on' : undefined,
        contact_whatsapp: toBool(ad.contact_whatsapp) ? 'on' : undefined,
        submission_key: `seed-${ad.id}`,
        attrs,
      };
      const parsed = adFormSchema(attributes).safeParse(form);
      expect(parsed.success ? [] : parsed.error.issues, `ad ${ad.id} in ${ad.category_slug}`).toEqual([]);
      if (ad.price_type === 'fixed' || ad.price_type === 'negotiable') expect(toNumber(ad.price)).toBeGreaterThan(0);
      else expect(ad.price).toBeNull();
      // The area, when given, is in the ad's city.
      if (ad.area_id !== null) expect(areas.get(ad.area_id)).toBe(ad.city_id);
    }
  });

  async function expectCountersLikeARecount() {
    const counts = async () => ({
      categories: (await t.db.selectFrom('categories').select(['id', 'ads_count']).orderBy('id').execute()).map((c) => [
        c.id,
        toNumber(c.ads_count),
      ]),
      users: (await t.db.selectFrom('users').select(['id', 'active_ads_count']).orderBy('id').execute()).map((u) => [
        u.id,
        toNumber(u.active_ads_count),
      ]),
    });
    const seeded = await counts();
    expect(seeded.categories.some(([, n]) => (n as number) > 0)).toBe(true);
    for (const { id } of await t.db.selectFrom('taxonomies').select('id').execute()) await recountTaxonomy(t.db, id);
    for (const { id } of await t.db.selectFrom('users').select('id').execute()) await recountUserAds(t.db, id);
    expect(await counts()).toEqual(seeded);
    // The back office's counters (migration 0028), whose triggers a bulk load sets aside.
    const [stored, fresh] = await Promise.all([storedCounts(t.db), countAfresh(t.db, dialect)]);
    const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(stored.ads)).toEqual(sorted(fresh.ads));
    expect(sorted(stored.days)).toEqual(sorted(fresh.days));
    // Every pending ad has its place in the moderation queue.
    const unqueued = await t.db
      .selectFrom('ads')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .where('queued_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(toNumber(unqueued.n)).toBe(0);
  }

  it('leaves the category and member counters as a recount would', async () => {
    await expectCountersLikeARecount();
    const member = await t.db
      .selectFrom('users')
      .select('active_ads_count')
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(toNumber(member.active_ads_count)).toBe(1);
  });

  it('bulk mode adds exactly N ads with values and history, and ids keep counting after it', async () => {
    const before = (await ads()).length;
    const values = async () =>
      toNumber(
        (
          await t.db
            .selectFrom('ad_attribute_values')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const valuesBefore = await values();
    const report = await seedBulkAds(t, { count: 1234, chunk: 500, now });
    expect(report.ads).toBe(1234);
    const rows = await ads();
    expect(rows).toHaveLength(before + 1234);
    const added = rows.slice(before);
    expect(added.filter((r) => r.status === 'published').length).toBeGreaterThan(1234 * 0.8);
    expect(await values()).toBeGreaterThan(valuesBefore + 1234);
    const history = await t.db
      .selectFrom('ad_status_history')
      .select((eb) => eb.fn.count('ad_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    expect(toNumber(history.n)).toBe(before + 1234);
    // Every ad is in the text index (demo and bulk ads alike).
    const indexed = await t.db
      .selectFrom('ad_search')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(toNumber(indexed.n)).toBe(before + 1234);
    await expectCountersLikeARecount();
    // Explicit ids left the identity in step: an ad inserted the usual way gets the next id.
    const next = await t.db
      .insertInto('ads')
      .values({
        user_id: memberId,
        taxonomy_id: added[0].taxonomy_id,
        category_id: added[0].category_id,
        slug: 'after-bulk',
        title: 'After the bulk ads',
        description: 'Inserted without an id after the bulk ads.',
        city_id: added[0].city_id,
        contact_phone: false,
        contact_whatsapp: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(next.id).toBe(Math.max(...rows.map((r) => r.id)) + 1);
  });
});

describe.each(dialects)('a bulk load on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-seed-bulk-'));
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Tables, indexes, constraints and triggers as the database's catalogue describes them. */
  const schema = async () =>
    dialect === 'sqlite'
      ? (
          await sql<{ sql: string }>`
            select sql from sqlite_schema
            where type in ('index', 'trigger', 'table') and name not like 'sqlite_stat%' order by name`.execute(t.db)
        ).rows
      : (
          await sql<{ sql: string }>`
            select indexdef as sql from pg_indexes where schemaname = current_schema()
            union all
            select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
            where connamespace = (select oid from pg_namespace where nspname = current_schema())
            union all
            select pg_get_triggerdef(g.oid) from pg_trigger g join pg_class c on c.oid = g.tgrelid
            where c.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and not g.tgisinternal
            order by 1`.execute(t.db)
        ).rows;

  it('planned in a worker thread, leaves the schema as the migrations made it and every ad findable', async () => {
    const before = await schema();
    expect(before.length).toBeGreaterThan(20);
    const storage = createLocalStorage(dir);
    const report = await seedBulkAds(t, { count: 3000, chunk: 700, now, worker: true, storage });
    expect(report).toMatchObject({ ads: 3000, photos: 3000 });
    expect(await schema()).toEqual(before);
    // Each ad shows its taxonomy's shared photo.
    const images = await t.db.selectFrom('ad_images').select(['key', 'variants']).execute();
    expect(images).toHaveLength(3000);
    expect(new Set(images.map((i) => i.key)).size).toBe(8);
    expect(toJson<{ name: string }[]>(images[0].variants, []).map((v) => v.name)).toContain('thumb');
    if (dialect === 'sqlite') {
      // Tables and their rebuilt indexes agree, and so do the FTS5 index and its content table.
      expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.db)).rows).toEqual([
        { integrity_check: 'ok' },
      ]);
      await sql`insert into ad_search_fts(ad_search_fts, rank) values ('integrity-check', 1)`.execute(t.db);
    }

    const ads = await t.db
      .selectFrom('ads')
      .leftJoin('ad_search', 'ad_search.ad_id', 'ads.id')
      .select([
        'ads.id',
        'ads.title',
        'ads.description',
        'ad_search.title as indexed_title',
        'ad_search.body',
        'ad_search.terms',
        'ad_search.stems',
      ])
      .orderBy('ads.id')
      .execute();
    expect(ads).toHaveLength(3000);
    const words = await loadCatalogueWords(t.db);
    const places = await adPlaces(
      t.db,
      ads.map((ad) => ad.id),
    );
    for (const ad of ads) {
      const place = places.get(ad.id);
      if (!place) throw new Error(`ad ${ad.id} has no place`);
      const row = adSearchRow(ad.id, ad.title, ad.description, words, place);
      expect([ad.indexed_title, ad.body, ad.terms, ad.stems], `ad ${ad.id}`).toEqual([
        row.title,
        row.body,
        row.terms,
        row.stems,
      ]);
    }
    // A search for an ad's own words finds it (all of them: few other ads have every one).
    for (const ad of [ads[0], ads[1499], ads[2999]]) {
      const found = await matchAdText(t.db, dialect, `${ad.title} ${ad.description}`);
      expect(found.map((m) => m.id)).toContain(ad.id);
    }
    // The triggers are back: changing an ad's text reindexes it.
    await indexAdText(t.db, ads[10].id, 'Zebulon zarqawi test', 'A description nobody else has.');
    expect((await matchAdText(t.db, dialect, 'zebulon zarq')).map((m) => m.id)).toEqual([ads[10].id]);
  });

  it.runIf(dialect === 'sqlite')('creates again what a load killed outright left out, at the next load', async () => {
    const before = await schema();
    const objects = (
      await sql<{ type: string; name: string; sql: string }>`
        select type, name, sql from sqlite_schema
        where (type = 'trigger' and tbl_name = 'ad_search') or (type = 'index' and name = 'ads_owner')`.execute(t.db)
    ).rows;
    expect(objects).toHaveLength(4);
    // What a load writes down before dropping them, and then dies.
    const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(t.db);
    const pending = `${rows.find((r) => r.name === 'main')?.file}.bulk-load.json`;
    writeFileSync(pending, JSON.stringify(objects));
    for (const o of objects) await sql`drop ${sql.raw(o.type)} ${sql.id(o.name)}`.execute(t.db);
    expect(await restoreAfterBulkLoad(t.db)).toBe(4);
    expect(existsSync(pending)).toBe(false);
    expect(await schema()).toEqual(before);
    await sql`insert into ad_search_fts(ad_search_fts, rank) values ('integrity-check', 1)`.execute(t.db);
    expect(await restoreAfterBulkLoad(t.db)).toBe(0);
  });

  it('gives ads pins near their area or city, prices, and dates over the last weeks', async () => {
    const rows = await t.db
      .selectFrom('ads')
      .innerJoin('cities', 'cities.id', 'ads.city_id')
      .leftJoin('areas', 'areas.id', 'ads.area_id')
      .select([
        'ads.lat',
        'ads.lng',
        'ads.status',
        'ads.price',
        'ads.price_type',
        'ads.published_at',
        'cities.lat as city_lat',
        'cities.lng as city_lng',
        'areas.lat as area_lat',
        'areas.lng as area_lng',
      ])
      .execute();
    const pinned = rows.filter((r) => r.lat !== null);
    expect(pinned.length).toBeGreaterThan(rows.length * 0.2);
    for (const r of pinned) {
      const centre = r.area_lat === null ? [r.city_lat, r.city_lng] : [r.area_lat, r.area_lng];
      expect(Math.abs(toNumber(r.lat) - toNumber(centre[0]))).toBeLessThanOrEqual(0.016);
      expect(Math.abs(toNumber(r.lng) - toNumber(centre[1]))).toBeLessThanOrEqual(0.016);
    }
    expect(rows.filter((r) => r.price !== null).length).toBeGreaterThan(rows.length * 0.8);
    const published = rows
      .filter((r) => r.status === 'published')
      .map((r) => new Date(r.published_at as string).getTime());
    expect(published.length).toBeGreaterThan(rows.length * 0.8);
    expect(Math.max(...published) - Math.min(...published)).toBeGreaterThan(20 * DAY);
    expect(Math.min(...published)).toBeGreaterThan(now.getTime() - 31 * DAY);
  });
});

describe.each(dialects)('demo ad photos on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-seed-photos-'));
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws them, processed and stored like uploads, for the newest published ads first', async () => {
    const storage = createLocalStorage(dir);
    const report = await seedDemoAds(t, { count: 20, storage, photoAds: 2, maxPhotosPerAd: 1, now });
    expect(report?.photos).toBe(2);
    const images = await t.db
      .selectFrom('ad_images')
      .innerJoin('ads', 'ads.id', 'ad_images.ad_id')
      .select(['ad_images.key', 'ad_images.width', 'ad_images.height', 'ad_images.variants', 'ads.status'])
      .execute();
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.status).toBe('published');
      expect(image.key).toMatch(/^ads\/\d{4}\/\d{2}\/[0-9a-f]{32}$/);
      expect(image.width * image.height).toBeGreaterThan(0);
      for (const variant of ['thumb', 'medium', 'large']) {
        expect(existsSync(path.join(dir, `${image.key}-${variant}.webp`))).toBe(true);
      }
    }
  });
});
