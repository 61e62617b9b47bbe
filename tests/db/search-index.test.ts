// The quick ways of the search index (server/domain/search/service.ts `rankIndex`) against the one
// pass over every slot they stand in for: counts of plain queries from the tables, pages walked in
// the sort's order, scans of a category's run of slots, a city's or a time window's — on an index
// of a few thousand random ads in the seeded catalogue, sealed (slots renumbered) and then changed
// (a tail of new slots, dead ones among the sealed), so every path meets both.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery, RESULTS_PAGE_SIZE } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { AdIndex, type AttributeTest, type IndexRow } from '../../server/domain/search/ad-index.ts';
import { type CatalogueSnapshot, loadCatalogueSnapshot } from '../../server/domain/search/catalogue.ts';
import { rankIndex, resolveQuery, scanFilter } from '../../server/domain/search/service.ts';
import { createTestDatabase } from '../support/databases.ts';
import { NO_FILTER } from '../support/scan-filter.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);

/** A small deterministic random source (the same ads on every run). */
function random(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (x * 1_664_525 + 1_013_904_223) >>> 0;
    return x / 2 ** 32;
  };
}

let catalogue: CatalogueSnapshot;
let index: AdIndex;

function makeIndex(): AdIndex {
  const r = random(42);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)] as T;
  const leaves = [...catalogue.categoryById.values()].filter((c) => c.children.length === 0).map((c) => c.id);
  // A few categories and cities hold most ads, as on a real site.
  const busyLeaves = leaves.slice(0, 5);
  const cities = catalogue.cities.map((c) => c.id);
  const busyCities = cities.slice(0, 3);
  const rowOf = (id: number): IndexRow => {
    const city = r() < 0.7 ? pick(busyCities) : pick(cities);
    const areas = catalogue.cityById.get(city)?.areas ?? [];
    const priced = r() < 0.85;
    return {
      id,
      category: r() < 0.6 ? pick(busyLeaves) : pick(leaves),
      city,
      area: areas.length > 0 && r() < 0.6 ? pick(areas) : 0,
      // Round prices: many ties.
      price: priced ? Math.round(r() * 50) * 1000 : Number.NaN,
      currency: r() < 0.1 ? 1 : 0,
      photos: r() < 0.5,
      company: r() < 0.3,
      // Bumps out of id order, some equal.
      bumped: NOW - Math.floor(r() * 400) * (DAY / 10),
      featuredUntil: r() < 0.05 ? NOW + DAY : r() < 0.05 ? NOW - DAY : 0,
      lat: 32 + r(),
      lng: 13 + r(),
    };
  };
  const ix = new AdIndex();
  for (let id = 1; id <= 4000; id++) ix.put(rowOf(id));
  ix.seal(NOW);
  // After the seal: edits (new slots for old ads), removals, new ads — the tail and dead slots.
  for (let i = 0; i < 300; i++) ix.put(rowOf(1 + Math.floor(r() * 4000)));
  for (let i = 0; i < 200; i++) ix.remove(1 + Math.floor(r() * 4000));
  for (let id = 4001; id <= 4300; id++) ix.put(rowOf(id));
  return ix;
}

const queries = (): string[] => {
  const top = catalogue.topLevel.values().next().value ?? [];
  const parent = catalogue.categoryById.get(top[0] as number);
  const leaf = [...catalogue.categoryById.values()].find((c) => c.children.length === 0);
  const city = catalogue.cities[0];
  const area = city ? catalogue.areaById.get(catalogue.cityById.get(city.id)?.areas[0] as number) : undefined;
  const small = catalogue.cities[catalogue.cities.length - 1];
  const taxonomy = catalogue.taxonomies[0];
  return [
    '',
    `category=${parent?.slug}`,
    `category=${leaf?.slug}`,
    `taxonomy=${taxonomy?.slug}`,
    `city=${city?.slug}`,
    `city=${city?.slug}&area=${area?.slug}`,
    `city=${small?.slug}`,
    `category=${parent?.slug}&city=${small?.slug}`,
    'photos=1',
    'within=7',
    'price_min=10000&price_max=30000',
    'price_max=20000&currency=USD',
    `category=${parent?.slug}&within=30&photos=1`,
    `city=${city?.slug}&price_min=5000`,
  ];
};

beforeAll(async () => {
  const t = await createTestDatabase('sqlite');
  await seedCatalogue(t.db);
  catalogue = await loadCatalogueSnapshot(t.db);
  await t.close();
  index = makeIndex();
});

describe('search index: quick paths give what one pass over every slot gives', () => {
  it('renumbers sealed slots by category and keeps every ad findable by id', () => {
    const start = index.categoryStart;
    for (let s = 0; s < index.sealed; s++) {
      const c = index.category[s] as number;
      expect(s >= (start[c] as number) && s < (start[c + 1] as number)).toBe(true);
    }
    for (let s = 0; s < index.size; s++) {
      if (index.alive[s] === 1) expect(index.slot(index.id[s] as number)).toBe(s);
    }
    expect(index.size - index.sealed).toBeGreaterThan(0);
    expect(index.dead).toBeGreaterThan(0);
  });

  for (const sort of ['newest', 'price-asc', 'price-desc', 'relevance']) {
    it(`pages, counts and facets agree (sort ${sort})`, () => {
      for (const params of queries()) {
        const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(`${params}&sort=${sort}`)));
        for (const page of [1, 2, 7]) {
          const options = { page, now: NOW };
          const quick = rankIndex(index, catalogue, resolved, null, options);
          const reference = rankIndex(index, catalogue, resolved, null, { ...options, exhaustive: true });
          expect(quick, `${params} sort=${sort} page ${page}`).toEqual(reference);
        }
      }
    });
  }

  it('the featured section and answers without facets agree', () => {
    for (const params of queries()) {
      const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(params)));
      for (const options of [
        { featured: true, now: NOW },
        { facets: false, now: NOW },
      ]) {
        const quick = rankIndex(index, catalogue, resolved, null, options);
        expect(quick).toEqual(rankIndex(index, catalogue, resolved, null, { ...options, exhaustive: true }));
      }
    }
  });

  it('the reference itself: newest first, count and city facet by brute force', () => {
    const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams('photos=1')));
    const reference = rankIndex(index, catalogue, resolved, null, { now: NOW, exhaustive: true });
    const live: number[] = [];
    for (let s = 0; s < index.size; s++) if (index.alive[s] === 1 && index.photos[s] === 1) live.push(s);
    live.sort(
      (a, b) =>
        (index.bumped[b] as number) - (index.bumped[a] as number) || (index.id[b] as number) - (index.id[a] as number),
    );
    expect(reference.total).toBe(live.length);
    expect(reference.ids).toEqual(live.slice(0, RESULTS_PAGE_SIZE).map((s) => index.id[s]));
    const first = catalogue.cities[0];
    const inFirst = live.filter((s) => index.city[s] === first?.id).length;
    expect(reference.facets.cities.find((f) => f.slug === first?.slug)?.count ?? 0).toBe(inFirst);
  });

  it('a viewport keeps the live ads inside it that pass the filter, in slot order', () => {
    const boxes: [number, number, number, number][] = [
      [32.2, 13.1, 32.6, 13.7],
      [32, 13, 33, 14],
      [32.95, 13.95, 33.5, 14.5],
    ];
    for (const params of ['', 'photos=1', `category=${catalogue.categoryById.values().next().value?.slug}`]) {
      const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(params)));
      const filter = scanFilter(catalogue, resolved, null, NOW);
      const plain = index.matching({ ...filter }).slice();
      for (const bbox of boxes) {
        const [south, west, north, east] = bbox;
        const inside = [...plain].filter((s) => {
          const la = index.lat[s] as number;
          const ln = index.lng[s] as number;
          return la >= south && la <= north && ln >= west && ln <= east;
        });
        expect([...index.matching({ ...filter, bbox })], `${params} ${bbox}`).toEqual(inside);
      }
    }
  });
});

describe("search index: attribute filters against each ad's values, by brute force", () => {
  // Five attributes kept in each of the index's ways: options one per ad (dense, 16-bit), options
  // several per ad (a multiselect: chained entries), years (dense, 16-bit), engine sizes (decimals:
  // 64-bit), mileages (whole numbers past 16 bits: 32-bit floats).
  const SELECT = 1;
  const MULTI = 2;
  const YEAR = 3;
  const ENGINE = 4;
  const MILEAGE = 5;
  const CATEGORIES = 12;

  function build(spanSlack: number) {
    const r = random(7);
    const values = new Map<number, Map<number, number[]>>();
    const ix = new AdIndex();
    const put = (id: number) => {
      const category = 1 + Math.floor(r() * CATEGORIES);
      ix.put({
        id,
        category,
        city: 1 + Math.floor(r() * 5),
        area: 0,
        price: Math.round(r() * 100) * 100,
        currency: 0,
        photos: r() < 0.5,
        company: r() < 0.3,
        bumped: NOW - Math.floor(r() * 1000) * DAY,
        featuredUntil: 0,
        lat: 32 + r(),
        lng: 13 + r(),
      });
      const mine = new Map<number, number[]>();
      // Cars (categories 1 to 4) have most of them, as their own attributes; others rarely.
      const car = category <= 4;
      if (r() < (car ? 0.9 : 0.05)) mine.set(SELECT, [Math.floor(r() * 6)]);
      if (r() < (car ? 0.7 : 0.02)) {
        const picked = new Set<number>();
        const count = Math.floor(r() * 4);
        for (let i = 0; i < count; i++) picked.add(Math.floor(r() * 8));
        mine.set(MULTI, [...picked]);
      }
      if (car && r() < 0.8) mine.set(YEAR, [1990 + Math.floor(r() * 36)]);
      if (car && r() < 0.6) mine.set(ENGINE, [Math.round(r() * 40) / 10]);
      // 65 535, the 16-bit columns' "none", is a mileage like any other in a float column.
      if (car && r() < 0.6) mine.set(MILEAGE, [id % 10 === 0 ? 65_535 : Math.floor(r() * 400_000)]);
      const s = ix.slot(id);
      for (const [attribute, list] of mine) for (const v of list) ix.addValue(attribute, s, v);
      values.set(id, mine);
    };
    for (let id = 1; id <= 3000; id++) put(id);
    ix.seal(NOW, spanSlack);
    // Changed since the seal: new values in new slots, ads gone, new ads.
    for (let i = 0; i < 300; i++) put(1 + Math.floor(r() * 3000));
    for (let i = 0; i < 150; i++) {
      const id = 1 + Math.floor(r() * 3000);
      ix.remove(id);
      values.delete(id);
    }
    for (let id = 3001; id <= 3200; id++) put(id);
    return { ix, values, put };
  }

  const options = (...wanted: number[]) => {
    // Six options, as the catalogue has them now; option 5 of the ads was dropped from it since.
    const set = new Uint8Array(5);
    for (const o of wanted) set[o] = 1;
    return set;
  };
  const range = (id: number, lo: number, hi: number): AttributeTest => ({ id, set: null, lo, hi });
  const testSets: AttributeTest[][] = [
    [{ id: SELECT, set: options(1), lo: 0, hi: 0 }],
    [{ id: SELECT, set: options(0, 2, 4), lo: 0, hi: 0 }],
    [{ id: SELECT, set: options(4, 5), lo: 0, hi: 0 }],
    [{ id: MULTI, set: options(3), lo: 0, hi: 0 }],
    [{ id: MULTI, set: options(0, 7), lo: 0, hi: 0 }],
    [range(YEAR, 2012, Number.POSITIVE_INFINITY)],
    [range(YEAR, 2000, 2005)],
    [range(ENGINE, 1.6, 2.4)],
    [range(MILEAGE, Number.NEGATIVE_INFINITY, 150_000)],
    [range(MILEAGE, 60_000, 70_000)],
    [range(YEAR, 2010, Number.POSITIVE_INFINITY), { id: SELECT, set: options(1, 3), lo: 0, hi: 0 }],
    [{ id: MULTI, set: options(1, 2), lo: 0, hi: 0 }, range(MILEAGE, 50_000, 250_000)],
    [range(99, 0, 10)],
  ];

  function expected(values: Map<number, Map<number, number[]>>, tests: AttributeTest[], ids: Set<number>) {
    return [...ids]
      .filter((id) =>
        tests.every((t) =>
          (values.get(id)?.get(t.id) ?? []).some((v) =>
            t.set !== null ? v < t.set.length && t.set[v] === 1 : v >= t.lo && v <= t.hi,
          ),
        ),
      )
      .sort((a, b) => a - b);
  }

  // 4096: the sealed columns keep an array over their span; -1e9: none does (sought by bisection).
  for (const spanSlack of [4096, -1e9]) {
    it(`keeps exactly the ads whose values pass (arrays over spans: ${spanSlack > 0})`, () => {
      const { ix, values, put } = build(spanSlack);
      const kinds = [SELECT, MULTI, YEAR, ENGINE, MILEAGE].map((a) => {
        const col = ix.attributes.get(a);
        return col?.dense ? col.dense.constructor.name : col?.head ? 'head' : 'none';
      });
      expect(kinds).toEqual(
        spanSlack > 0 ? ['Uint16Array', 'head', 'Uint16Array', 'Float64Array', 'Float32Array'] : Array(5).fill('none'),
      );
      const live = new Set(values.keys());
      const idsOf = (slots: Int32Array) => [...slots].map((s) => ix.id[s] as number).sort((a, b) => a - b);
      const r = random(11);
      const cars = new Uint8Array(CATEGORIES + 1);
      for (let c = 1; c <= 4; c++) cars[c] = 1;
      const inCars = new Set([...live].filter((id) => cars[ix.category[ix.slot(id)] as number] === 1));
      for (const tests of testSets) {
        const filter = { ...NO_FILTER, attributes: tests };
        expect(idsOf(ix.matching(filter)), JSON.stringify(tests)).toEqual(expected(values, tests, live));
        // The same over the cars' runs of slots (and the tail), and among text candidates.
        const scoped = { ...filter, categories: cars };
        expect(idsOf(ix.matching(scoped, ix.runsFor(scoped, null)))).toEqual(expected(values, tests, inCars));
        const candidates = [...new Set(Array.from({ length: 800 }, () => 1 + Math.floor(r() * 3300)))];
        const among = new Set(candidates.filter((id) => live.has(id)));
        expect(idsOf(ix.matching({ ...filter, candidates }))).toEqual(expected(values, tests, among));
      }
      // A category set shorter than the categories' ids (a category newer than the snapshot): not in.
      const firstOnly = { ...NO_FILTER, categories: Uint8Array.of(0, 1), candidates: [...live] };
      const inFirst = [...live].filter((id) => ix.category[ix.slot(id)] === 1).sort((a, b) => a - b);
      expect(inFirst.length).toBeGreaterThan(0);
      expect(idsOf(ix.matching(firstOnly))).toEqual(inFirst);
      // Ads changed after the tail's values were first looked up; then sealed again.
      for (let id = 1; id <= 3200; id += 16) put(id);
      for (const reseal of [false, true]) {
        if (reseal) ix.seal(NOW, spanSlack);
        for (const tests of testSets) {
          const filter = { ...NO_FILTER, attributes: tests };
          expect(idsOf(ix.matching(filter)), JSON.stringify(tests)).toEqual(
            expected(values, tests, new Set(values.keys())),
          );
        }
      }
    });
  }
});
