// The search service (issue 5 §1, PRODUCT.md §4): one entry point for `/posts`, category pages,
// the map, the home page sections and `GET /api/posts`. It resolves a query against the
// catalogue (dropping what does not exist), narrows text through the database's text index, and
// runs the rest — filters, facets, sort, page — over the in-memory index of published ads.
import {
  type AttributeFilter,
  MAX_RESULT_PAGES,
  RESULTS_PAGE_SIZE,
  type SearchQuery,
  type SearchSort,
} from '../../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../../db/index.ts';
import { textCandidates } from '../../db/text-search.ts';
import {
  type AdIndex,
  type AttributeTest,
  buildAdIndex,
  changedSince,
  isFilterable,
  newestChange,
  REBUILD_EVERY_MS,
  REREAD_WINDOW_MS,
  refreshAds,
  type ScanFilter,
} from './ad-index.ts';
import { CATALOGUE_TTL_MS, type CatalogueSnapshot, loadCatalogueSnapshot, type SnapAttribute } from './catalogue.ts';

/** Text matches beyond which a query is "common": the newest this many are searched, and the count says "more than". */
export const TEXT_MATCH_CAP = 10_000;
const DAY = 86_400_000;

/** A query checked against the catalogue: what is left of it, and the ids it names. */
export interface ResolvedQuery {
  query: SearchQuery;
  taxonomyId: number | null;
  categoryId: number | null;
  cityId: number | null;
  areaId: number | null;
  /** The filterable attributes the query may use (its category's chain, or its taxonomy's). */
  attributes: SnapAttribute[];
}

export interface Facet {
  slug: string;
  name_ar: string;
  name_en: string;
  count: number;
}

export interface SearchResult {
  ids: number[];
  /** Ads matching (a lower bound when `exact` is false: a very common word, see TEXT_MATCH_CAP). */
  total: number;
  exact: boolean;
  /** Pages offered: at least 1, at most MAX_RESULT_PAGES. */
  pages: number;
  facets: {
    /** The next level down from the query's place: taxonomies (with ads), top-level categories or children (all). */
    categories: Facet[];
    /** Cities with matching ads (ignoring the city filter, so the others stay in view), most ads first. */
    cities: Facet[];
    /** Areas of the chosen city (ignoring the area filter). */
    areas: Facet[];
  };
  /** Leaf categories the results may come from (cache tags). */
  categoryIds: number[];
}

/** The attributes a query can filter on: those of its category's chain, or of its taxonomy. */
export function filterableAttributes(
  catalogue: CatalogueSnapshot,
  categoryId: number | null,
  taxonomyId: number | null,
): SnapAttribute[] {
  const all =
    categoryId !== null
      ? catalogue.chainAttributes(categoryId)
      : taxonomyId !== null
        ? catalogue.taxonomyAttributes(taxonomyId)
        : [];
  return all.filter(isFilterable);
}

/** Drops what the catalogue does not know: unknown slugs, an area of another city, foreign attributes. */
export function resolveQuery(catalogue: CatalogueSnapshot, input: SearchQuery): ResolvedQuery {
  const query: SearchQuery = { ...input, attributes: {} };
  const category = input.category ? catalogue.categoryBySlug.get(input.category) : undefined;
  const taxonomy = category
    ? catalogue.taxonomyById.get(category.taxonomy_id)
    : input.taxonomy
      ? catalogue.taxonomyBySlug.get(input.taxonomy)
      : undefined;
  query.category = category?.slug ?? null;
  query.taxonomy = taxonomy?.slug ?? null;
  const city = input.city ? catalogue.cityBySlug.get(input.city) : undefined;
  const area = city && input.area ? catalogue.areaBySlug.get(input.area) : undefined;
  query.city = city?.slug ?? null;
  query.area = area && area.city_id === city?.id ? area.slug : null;
  const attributes = filterableAttributes(catalogue, category?.id ?? null, taxonomy?.id ?? null);
  for (const a of attributes) {
    const f = input.attributes[a.key];
    if (!f) continue;
    const kept = keepFilter(a, f);
    if (kept) query.attributes[a.key] = kept;
  }
  return {
    query,
    taxonomyId: taxonomy?.id ?? null,
    categoryId: category?.id ?? null,
    cityId: city?.id ?? null,
    areaId: query.area ? (area?.id ?? null) : null,
    attributes,
  };
}

/** The filter as the attribute's type allows it, or null. */
function keepFilter(a: SnapAttribute, f: AttributeFilter): AttributeFilter | null {
  if (a.type === 'select' || a.type === 'multiselect') {
    if (f.kind !== 'options') return null;
    const options = f.options.filter((o) => a.options.some((x) => x.value === o));
    return options.length > 0 ? { kind: 'options', options } : null;
  }
  if (a.type === 'boolean') return f.kind === 'bool' ? f : null;
  if (f.kind !== 'range' || (f.min === null && f.max === null)) return null;
  return f;
}

/** An attribute filter as the index tests it: option indexes wanted, or bounds. */
function attributeTest(a: SnapAttribute, f: AttributeFilter): AttributeTest {
  if (f.kind === 'options') {
    const set = new Uint8Array(a.options.length);
    for (const o of f.options) {
      const i = a.options.findIndex((x) => x.value === o);
      if (i >= 0) set[i] = 1;
    }
    return { id: a.id, set, lo: 0, hi: 0 };
  }
  if (f.kind === 'bool') return { id: a.id, set: null, lo: f.value ? 1 : 0, hi: f.value ? 1 : 0 };
  return { id: a.id, set: null, lo: f.min ?? Number.NEGATIVE_INFINITY, hi: f.max ?? Number.POSITIVE_INFINITY };
}

/** The search state of one database: its catalogue snapshot and ad index, kept fresh. */
class SearchEngine {
  #catalogue: { at: number; value: Promise<CatalogueSnapshot> } | null = null;
  #index: { built: number; value: Promise<AdIndex>; catalogue: CatalogueSnapshot | null } | null = null;
  #seen = 0;
  #checking: Promise<void> | null = null;
  #rebuilding = false;

  readonly handle: DatabaseHandle;

  constructor(handle: DatabaseHandle) {
    this.handle = handle;
  }

  catalogue(): Promise<CatalogueSnapshot> {
    const now = Date.now();
    if (!this.#catalogue || now - this.#catalogue.at > CATALOGUE_TTL_MS) {
      const value = loadCatalogueSnapshot(this.handle.db);
      this.#catalogue = { at: now, value };
      value.catch(() => {
        this.#catalogue = null;
      });
    }
    return this.#catalogue.value;
  }

  /** Forgets the catalogue snapshot (after a staff edit of the catalogue). */
  forgetCatalogue() {
    this.#catalogue = null;
  }

  /** The ad index, brought up to date with every ad written before this call. */
  async index(): Promise<AdIndex> {
    this.#index ??= this.#build();
    const { value } = this.#index;
    const index = await value;
    this.#checking ??= this.#catchUp(index).finally(() => {
      this.#checking = null;
    });
    await this.#checking;
    return (await this.#index?.value) ?? index;
  }

  #build() {
    const state: { built: number; catalogue: CatalogueSnapshot | null; value: Promise<AdIndex> } = {
      built: Date.now(),
      catalogue: null,
      value: Promise.resolve(null as never),
    };
    state.value = (async () => {
      const catalogue = await this.catalogue();
      this.#seen = await newestChange(this.handle.db);
      state.catalogue = catalogue;
      return buildAdIndex(this.handle.db, this.handle.dialect, catalogue);
    })();
    state.value.catch(() => {
      if (this.#index === state) this.#index = null;
    });
    return state;
  }

  async #catchUp(index: AdIndex) {
    const { db } = this.handle;
    const newest = await newestChange(db);
    if (newest > this.#seen) {
      const since = new Date(this.#seen - REREAD_WINDOW_MS);
      const ids = await changedSince(db, this.handle.dialect, since);
      await refreshAds(db, index, this.#index?.catalogue ?? (await this.catalogue()), ids);
      this.#seen = newest;
    }
    const stale = Date.now() - (this.#index?.built ?? 0) > REBUILD_EVERY_MS;
    if (!this.#rebuilding && (stale || index.dead > Math.max(1000, index.live / 4))) this.#rebuild();
  }

  /** A fresh index built beside the current one, swapped in when complete. */
  #rebuild() {
    this.#rebuilding = true;
    const started = Date.now();
    void (async () => {
      try {
        this.forgetCatalogue();
        const catalogue = await this.catalogue();
        const seen = await newestChange(this.handle.db);
        const fresh = await buildAdIndex(this.handle.db, this.handle.dialect, catalogue);
        this.#index = { built: started, value: Promise.resolve(fresh), catalogue };
        this.#seen = Math.min(this.#seen, seen);
      } finally {
        this.#rebuilding = false;
      }
    })().catch(() => {});
  }
}

const engines = new WeakMap<DatabaseHandle, SearchEngine>();

export function searchEngine(handle: DatabaseHandle): SearchEngine {
  let engine = engines.get(handle);
  if (!engine) {
    engine = new SearchEngine(handle);
    engines.set(handle, engine);
  }
  return engine;
}

/** Text matches as scan candidates: ids (newest first), whether that is all of them, and relevance. */
async function textFilter(handle: DatabaseHandle, q: string, sort: SearchSort) {
  return textCandidates(handle.db, handle.dialect, q, TEXT_MATCH_CAP, sort === 'relevance');
}

export interface SearchOptions {
  page?: number;
  pageSize?: number;
  /** Leave out facet counting (home sections, the map's list). */
  facets?: boolean;
  /** Only ads featured now (the home page's featured section). */
  featured?: boolean;
  now?: number;
}

/** The categories a query lists (its category's subtree, or its taxonomy's); null for every one. */
function scopeOf(catalogue: CatalogueSnapshot, r: Pick<ResolvedQuery, 'categoryId' | 'taxonomyId'>): number[] | null {
  if (r.categoryId !== null) return catalogue.categoryById.get(r.categoryId)?.subtree ?? [];
  if (r.taxonomyId === null) return null;
  return [...catalogue.categoryById.values()].filter((c) => c.taxonomy_id === r.taxonomyId).map((c) => c.id);
}

/** The scan filter of a resolved query (everything but city and area, which the caller counts). */
export function scanFilter(
  catalogue: CatalogueSnapshot,
  r: ResolvedQuery,
  candidates: number[] | null,
  now = Date.now(),
): ScanFilter {
  let categories: Uint8Array | null = null;
  const scope = scopeOf(catalogue, r);
  if (scope !== null) {
    categories = new Uint8Array(catalogue.categorySpan);
    for (const id of scope) categories[id] = 1;
  }
  const q = r.query;
  return {
    categories,
    priceMin: q.priceMin,
    priceMax: q.priceMax,
    currency: q.currency === 'USD' ? 1 : 0,
    photos: q.photos,
    since: q.within === null ? 0 : now - q.within * DAY,
    attributes: r.attributes
      .filter((a) => q.attributes[a.key])
      .map((a) => attributeTest(a, q.attributes[a.key] as AttributeFilter)),
    candidates,
    bbox: null,
  };
}

/**
 * The sort key of each slot for a sort (higher first; ties go to the higher ad id): the last bump
 * for newest, the LYD price either way (ads without an amount last), the text score for relevance.
 */
function sortKey(index: AdIndex, sort: SearchSort, scores: Map<number, number> | null): (slot: number) => number {
  const { bumped, priceLyd, id } = index;
  const priced = (dir: number) => (s: number) => {
    const p = priceLyd[s] as number;
    return Number.isNaN(p) ? Number.NEGATIVE_INFINITY : p * dir;
  };
  if (sort === 'price-asc') return priced(-1);
  if (sort === 'price-desc') return priced(1);
  if (sort === 'relevance' && scores) {
    // Relevance first, then the last bump: a score is small next to a timestamp, so weigh it out.
    return (s: number) => (scores.get(id[s] as number) ?? 0) * 1e15 + (bumped[s] as number) / 1e3;
  }
  return (s: number) => bumped[s] as number;
}

/**
 * The best `k` slots by key (higher first, ties to the higher ad id): a bounded min-heap in typed
 * arrays whose root is the worst kept, so most of a million offers cost one comparison.
 */
export function topK(k: number, ids: Int32Array) {
  const keys = new Float64Array(k);
  const slots = new Int32Array(k);
  let size = 0;
  // a is worse than b
  const worse = (ka: number, sa: number, kb: number, sb: number) =>
    ka < kb || (ka === kb && (ids[sa] as number) < (ids[sb] as number));
  const worseAt = (i: number, j: number) =>
    worse(keys[i] as number, slots[i] as number, keys[j] as number, slots[j] as number);
  const swap = (i: number, j: number) => {
    const tk = keys[i] as number;
    const ts = slots[i] as number;
    keys[i] = keys[j] as number;
    slots[i] = slots[j] as number;
    keys[j] = tk;
    slots[j] = ts;
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worseAt(l, m)) m = l;
      if (r < size && worseAt(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  return {
    offer(s: number, key: number) {
      if (size < k) {
        let i = size++;
        keys[i] = key;
        slots[i] = s;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!worseAt(i, p)) break;
          swap(i, p);
          i = p;
        }
        return;
      }
      if (k === 0 || worse(key, s, keys[0] as number, slots[0] as number)) return;
      keys[0] = key;
      slots[0] = s;
      siftDown(0);
    },
    /** Kept slots, best first. */
    sorted(): number[] {
      const order = Array.from({ length: size }, (_, i) => i);
      order.sort((a, b) => (worseAt(a, b) ? 1 : -1));
      return order.map((i) => slots[i] as number);
    },
  };
}

function facetList(
  counts: Uint32Array,
  items: { id: number; slug: string; name_ar: string; name_en: string }[],
  byCount: boolean,
  keepEmpty = false,
): Facet[] {
  const list = items
    .map((c) => ({ slug: c.slug, name_ar: c.name_ar, name_en: c.name_en, count: counts[c.id] ?? 0 }))
    .filter((f) => keepEmpty || f.count > 0);
  return byCount ? list.sort((a, b) => b.count - a.count) : list;
}

/** Runs a resolved query: one page of ad ids, the count, and the facets. */
export async function searchAds(
  handle: DatabaseHandle,
  resolved: ResolvedQuery,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const engine = searchEngine(handle);
  const q = resolved.query;
  const [index, text] = await Promise.all([engine.index(), q.q ? textFilter(handle, q.q, q.sort) : null]);
  const catalogue = await engine.catalogue();
  const pageSize = options.pageSize ?? RESULTS_PAGE_SIZE;
  const page = options.page ?? 1;
  const filter = scanFilter(catalogue, resolved, text ? text.ids : null, options.now);
  const best = topK(page * pageSize, index.id);
  const keyOf = sortKey(index, q.sort, text?.scores ?? null);
  const wantFacets = options.facets !== false;
  const cityCounts = new Uint32Array(catalogue.citySpan);
  const areaCounts = new Uint32Array(catalogue.areaSpan);
  const categoryCounts = new Uint32Array(catalogue.categorySpan);
  const { cityId, areaId } = resolved;
  const cityOf = index.city;
  const areaOf = index.area;
  const categoryOf = index.category;
  let total = 0;
  const featuredSince = options.featured ? (options.now ?? Date.now()) : null;
  const featuredUntil = index.featuredUntil;
  index.scan(filter, (s) => {
    if (featuredSince !== null && (featuredUntil[s] as number) <= featuredSince) return;
    const city = cityOf[s] as number;
    cityCounts[city]++;
    if (cityId !== null && city !== cityId) return;
    const area = areaOf[s] as number;
    areaCounts[area]++;
    if (areaId !== null && area !== areaId) return;
    total++;
    categoryCounts[categoryOf[s] as number]++;
    best.offer(s, keyOf(s));
  });
  const slots = best.sorted().slice((page - 1) * pageSize);
  const ids = slots.map((s) => index.id[s] as number);
  const subtreeCount = (subtree: number[]) => subtree.reduce((n, id) => n + (categoryCounts[id] ?? 0), 0);
  let categories: Facet[] = [];
  if (wantFacets) {
    const rolled = (ids: number[]) => {
      const counts = new Uint32Array(Math.max(catalogue.categorySpan, ...ids.map((i) => i + 1)));
      const items = ids.map((id) => {
        const c = catalogue.categoryById.get(id);
        if (!c) return { id, slug: '', name_ar: '', name_en: '' };
        counts[id] = subtreeCount(c.subtree);
        return c;
      });
      // Every subcategory, even without ads: the facet is also how the catalogue is browsed.
      return facetList(counts, items, false, true);
    };
    if (resolved.categoryId !== null) {
      categories = rolled(catalogue.categoryById.get(resolved.categoryId)?.children ?? []);
    } else if (resolved.taxonomyId !== null) {
      categories = rolled(catalogue.topLevel.get(resolved.taxonomyId) ?? []);
    } else {
      const counts = new Uint32Array(Math.max(0, ...catalogue.taxonomies.map((t) => t.id)) + 1);
      for (const c of catalogue.categoryById.values()) counts[c.taxonomy_id] += categoryCounts[c.id] ?? 0;
      categories = facetList(counts, catalogue.taxonomies, false);
    }
  }
  const scopeIds = scopeOf(catalogue, resolved) ?? [];
  const exact = text ? text.exact : true;
  return {
    ids,
    total,
    exact,
    pages: Math.max(1, Math.min(MAX_RESULT_PAGES, Math.ceil(total / pageSize))),
    facets: {
      categories,
      cities: wantFacets ? facetList(cityCounts, catalogue.cities, true) : [],
      areas:
        wantFacets && cityId !== null
          ? facetList(
              areaCounts,
              (catalogue.cityById.get(cityId)?.areas ?? []).map((id) => catalogue.areaById.get(id) as never),
              true,
            )
          : [],
    },
    categoryIds: scopeIds,
  };
}

/** Resolves and runs a query in one go. */
export async function search(
  handle: DatabaseHandle,
  query: SearchQuery,
  options: SearchOptions = {},
): Promise<SearchResult & { resolved: ResolvedQuery }> {
  const resolved = resolveQuery(await searchEngine(handle).catalogue(), query);
  return { ...(await searchAds(handle, resolved, options)), resolved };
}
