// The search service (docs/product/search.md) on both dialects: filters, facets, sorts and pages over the
// in-memory index; text through the database's index; what the catalogue does not know dropped;
// and the index following writes made after it was built; readiness waiting for the index.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_QUERY, parseSearchQuery, type SearchQuery } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { textCandidates } from '../../server/db/text-search.ts';
import { search, searchEngine } from '../../server/domain/search/service.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd, type SearchAdSpec } from '../support/search-ads.ts';

const q = (params: string): SearchQuery => parseSearchQuery(new URLSearchParams(params));

describe.each(dialects)('search service on %s', (dialect) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};
  const find = async (params: string, options = {}) => {
    const r = await search(t, q(params), options);
    const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return { ...r, names: r.ids.map((id) => names[id] ?? String(id)) };
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    const specs: Record<string, SearchAdSpec> = {
      corolla: {
        title: 'تويوتا كورولا ٢٠١٥ نظيفة',
        category: 'toyota',
        city: 'tripoli',
        area: 'dahra',
        price: 45000,
        daysAgo: 1,
        photo: true,
        attrs: { year: 2015, mileage: 120000, transmission: 'automatic', condition: 'used' },
      },
      camry: {
        title: 'سيارة تويوتا كامري للبيع',
        category: 'toyota',
        city: 'tripoli',
        area: 'ben-ashour',
        price: 12000,
        currency: 'USD',
        daysAgo: 2,
        attrs: { year: 2019, mileage: 40000, transmission: 'automatic', condition: 'used' },
      },
      cruiser: {
        title: 'Toyota Land Cruiser 2012',
        category: 'toyota',
        city: 'benghazi',
        price: 90000,
        daysAgo: 3,
        photo: true,
        attrs: { year: 2012, mileage: 250000, transmission: 'manual', condition: 'used' },
      },
      flat: {
        title: 'شقة قرب مستشفى الخضراء',
        category: 'apartments-for-sale',
        city: 'tripoli',
        price: 300000,
        daysAgo: 10,
        attrs: { bedrooms: 3, furnished: true },
      },
      freebie: { title: 'أثاث مجاني', category: 'apartments-for-rent', city: 'misrata', price: null, daysAgo: 40 },
      draft: { title: 'تويوتا مسودة', category: 'toyota', city: 'tripoli', status: 'draft' },
    };
    for (const [name, spec] of Object.entries(specs)) ids[name] = await placeSearchAd(t, spec);
  });
  afterAll(() => t.drop());

  it('lists published ads only, newest first, with facets by taxonomy and city', async () => {
    const r = await find('');
    expect(r.names).toEqual(['corolla', 'camry', 'cruiser', 'flat', 'freebie']);
    expect(r.total).toBe(5);
    expect(r.exact).toBe(true);
    expect(r.facets.categories.map((f) => [f.slug, f.count])).toEqual([
      ['motors', 3],
      ['property', 2],
    ]);
    expect(r.facets.cities.map((f) => [f.slug, f.count])).toEqual([
      ['tripoli', 3],
      ['benghazi', 1],
      ['misrata', 1],
    ]);
  });

  it('narrows by category subtree, city, area, price, photos and time', async () => {
    expect((await find('category=cars')).names).toEqual(['corolla', 'camry', 'cruiser']);
    expect((await find('taxonomy=property')).names).toEqual(['flat', 'freebie']);
    const inTripoli = await find('category=cars&city=tripoli');
    expect(inTripoli.names).toEqual(['corolla', 'camry']);
    // The city facet ignores the city filter: Benghazi stays in view with its count.
    expect(inTripoli.facets.cities.map((f) => [f.slug, f.count])).toEqual([
      ['tripoli', 2],
      ['benghazi', 1],
    ]);
    expect(inTripoli.facets.areas.map((f) => f.slug).sort()).toEqual(['ben-ashour', 'dahra']);
    expect((await find('city=tripoli&area=dahra')).names).toEqual(['corolla']);
    expect((await find('price_min=40000&price_max=100000')).names).toEqual(['corolla', 'cruiser']);
    expect((await find('price_max=20000&currency=USD')).names).toEqual(['camry']);
    expect((await find('photos=1')).names).toEqual(['corolla', 'cruiser']);
    expect((await find('within=7')).names).toEqual(['corolla', 'camry', 'cruiser']);
  });

  it('filters by attribute options, ranges and booleans', async () => {
    expect((await find('category=cars&f.transmission=automatic')).names).toEqual(['corolla', 'camry']);
    expect((await find('category=cars&f.transmission=automatic,manual')).names).toHaveLength(3);
    expect((await find('category=cars&f.year.min=2014&f.mileage.max=150000')).names).toEqual(['corolla', 'camry']);
    expect((await find('category=cars&f.year.min=2014&f.transmission=manual')).names).toEqual([]);
    expect((await find('category=apartments-for-sale&f.furnished=1')).names).toEqual(['flat']);
    expect((await find('category=apartments-for-sale&f.furnished=0')).names).toEqual([]);
  });

  it('drops what the catalogue does not know instead of failing', async () => {
    const r = await find('category=no-such&city=atlantis&f.transmission=automatic&f.colour=red');
    expect(r.resolved.query).toEqual({ ...EMPTY_QUERY });
    expect(r.total).toBe(5);
    // An attribute of another category is not a filter here; an unknown option is dropped.
    const flat = await find('category=apartments-for-sale&f.transmission=automatic&f.furnished=1');
    expect(Object.keys(flat.resolved.query.attributes)).toEqual(['furnished']);
    const cars = await find('category=cars&f.transmission=automatic,flying');
    expect(cars.resolved.query.attributes.transmission).toEqual({ kind: 'options', options: ['automatic'] });
    // An area of another city is dropped.
    expect((await find('city=benghazi&area=dahra')).resolved.query.area).toBeNull();
  });

  it('sorts by price both ways (USD at its rate, no amount last) and by relevance', async () => {
    expect((await find('sort=price-asc')).names).toEqual(['corolla', 'camry', 'cruiser', 'flat', 'freebie']);
    expect((await find('sort=price-desc')).names).toEqual(['flat', 'cruiser', 'camry', 'corolla', 'freebie']);
    // Every ad filed under Toyota, those saying it in their title first (the newer first among them).
    expect((await find('q=تويوتا&sort=relevance')).names).toEqual(['corolla', 'camry', 'cruiser']);
    expect((await find('q=تويوتا&sort=newest')).names).toEqual(['corolla', 'camry', 'cruiser']);
    // The category the words name comes first: "شقة" names apartments, and the flat is older.
    expect((await find('q=شقة&sort=relevance')).names).toEqual(['flat', 'freebie']);
  });

  it('finds Arabic spelling variants and harakat through the text index', async () => {
    expect((await find('q=تُويُوتَا')).names).toEqual(['corolla', 'camry', 'cruiser']);
    // A car says "سيارة" through its category (سيارات); the ad saying it in its title comes first.
    expect((await find('q=سياره')).names).toEqual(['camry', 'corolla', 'cruiser']);
    expect((await find('q=مستشفي')).names).toEqual(['flat']);
    expect((await find('q=٢٠١٥ تويو')).names).toEqual(['corolla']);
    expect((await find('q=تويوتا&city=benghazi')).names).toEqual(['cruiser']);
    expect((await find('q=تويوتا&city=misrata')).names).toEqual([]);
    // A place is a word of its ads too.
    expect((await find('q=تويوتا بنغازي')).names).toEqual(['cruiser']);
  });

  it('pages results and offers no empty pages', async () => {
    const first = await find('', { pageSize: 2 });
    const second = await find('', { pageSize: 2, page: 2 });
    const third = await find('', { pageSize: 2, page: 3 });
    expect([...first.names, ...second.names, ...third.names]).toEqual([
      'corolla',
      'camry',
      'cruiser',
      'flat',
      'freebie',
    ]);
    expect(first.pages).toBe(3);
  });

  it('follows ads published, edited and withdrawn after the index was built', async () => {
    await find('');
    const late = await placeSearchAd(t, { title: 'هيونداي جديدة', category: 'cars', city: 'sabha', price: 5000 });
    ids.late = late;
    expect((await find('')).names[0]).toBe('late');
    await t.db
      .updateTable('ads')
      .set({ price: 95000, updated_at: new Date() } as never)
      .where('id', '=', late)
      .execute();
    expect((await find('sort=price-desc&category=cars')).names[0]).toBe('late');
    await t.db
      .updateTable('ads')
      .set({ status: 'sold', updated_at: new Date() } as never)
      .where('id', '=', late)
      .execute();
    expect((await find('')).names).not.toContain('late');
    expect((await searchEngine(t).index()).dead).toBeGreaterThan(0);
  });

  it('caps a very common word at the newest matches and says the count is a lower bound', async () => {
    const all = await textCandidates(t.db, dialect, 'وصف', 100);
    expect(all.exact).toBe(true);
    const capped = await textCandidates(t.db, dialect, 'وصف', 2);
    expect(capped).toMatchObject({ exact: false, ids: all.ids.slice(0, 2) });
    expect(all.ids).toEqual([...all.ids].sort((a, b) => b - a));
  });
});

describe.each(dialects)('search catch-up on %s', (dialect) => {
  it('sees a write in the newest seen millisecond, one committed late, and two to one ad in one millisecond', async () => {
    const t = await createTestDatabase(dialect);
    try {
      await seedCatalogue(t.db);
      const at = (id: number, when: number, status?: string) =>
        t.db
          .updateTable('ads')
          .set({ updated_at: new Date(when), ...(status ? { status } : {}) } as never)
          .where('id', '=', id)
          .execute();
      const found = async () => (await search(t, q('city=sabha'))).ids.sort();
      // An index built when the newest write is older than the window: only a newer write is news.
      const old = await placeSearchAd(t, { title: 'قديم', category: 'cars', city: 'sabha' });
      await at(old, Date.now() - 20_000);
      expect(await found()).toEqual([old]);
      // The newest write, three seconds ago (older than the writes applied at every catch-up).
      const newest = Date.now() - 3000;
      const first = await placeSearchAd(t, { title: 'أول', category: 'cars', city: 'sabha' });
      await at(first, newest);
      expect(await found()).toEqual([old, first].sort());
      // Another ad dated in the same millisecond: the newest time has not moved.
      const twin = await placeSearchAd(t, { title: 'توأم', category: 'cars', city: 'sabha' });
      await at(twin, newest);
      expect(await found()).toContain(twin);
      // One dated before it: its transaction began earlier and committed after the search.
      const slow = await placeSearchAd(t, { title: 'بطيء', category: 'cars', city: 'sabha' });
      await at(slow, newest - 5000);
      expect(await found()).toContain(slow);
      // And one withdrawn the same way.
      await at(twin, newest - 4000, 'sold');
      expect(await found()).not.toContain(twin);
      expect(await found()).toEqual([old, first, slow].sort());
      // Two writes to one ad in the same millisecond (as just now: applied again while recent).
      const now = Date.now() + 500;
      await at(first, now);
      expect(await found()).toContain(first);
      await at(first, now, 'sold');
      expect(await found()).toEqual([old, slow].sort());
    } finally {
      await t.drop();
    }
  });
});

describe.each(dialects)('search readiness on %s', (dialect) => {
  it('is ready once the index is built, and tries a failed build again', async () => {
    const t = await createTestDatabase(dialect);
    try {
      await seedCatalogue(t.db);
      await placeSearchAd(t, { title: 'تويوتا', category: 'toyota', city: 'tripoli' });
      const engine = searchEngine(t);
      // No ads table: every build fails, and the engine never says it is ready.
      await sql`alter table ads rename to ads_away`.execute(t.db);
      expect(engine.ready()).toBe(false);
      await expect(engine.index()).rejects.toThrow();
      expect(engine.ready()).toBe(false);
      await expect(engine.index()).rejects.toThrow();
      await sql`alter table ads_away rename to ads`.execute(t.db);
      // The failed build is forgotten: the next check starts one that succeeds.
      expect(engine.ready()).toBe(false);
      expect((await engine.index()).live).toBe(1);
      expect(engine.ready()).toBe(true);
    } finally {
      await t.drop();
    }
  });
});
