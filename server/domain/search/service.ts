// The search service (docs/product/search.md): one entry point for `/posts`, category pages,
// the map, the home page sections and `GET /api/posts`. It resolves a query against the
// catalogue (dropping what does not exist), narrows text through the database's text index, and
// runs the rest — filters, facets, sort, page — over the in-memory index of published ads.
import { fieldFilterTests } from '../../../app/lib/search-filters.ts';
import {
  type AttributeFilter,
  MAX_RESULT_PAGES,
  RESULTS_PAGE_SIZE,
  type SearchQuery,
  type SearchSort,
} from '../../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../../db/index.ts';
import { adTexts, RANK_CAP, type TextCandidates, textCandidates, textScores } from '../../db/text-search.ts';
import { onCatalogueChange } from '../catalogue-changes.ts';
import {
  type AdIndex,
  type AttributeTest,
  buildAdIndex,
  changesSince,
  INDIRECT_COST,
  isFilterable,
  isPlain,
  newestChange,
  type OrderedSort,
  REBUILD_EVERY_MS,
  REREAD_WINDOW_MS,
  refreshAds,
  type ScanFilter,
  scanCost,
} from './ad-index.ts';
import { type TextTerms, textTerms, Vocabulary } from './analyzer.ts';
import { CATALOGUE_TTL_MS, type CatalogueSnapshot, loadCatalogueSnapshot, type SnapAttribute } from './catalogue.ts';
import { categoryWords, type NameWords, says, withCatalogueKeys } from './catalogue-keys.ts';
import { type CategoryChip, categoryChips } from './chips.ts';
import { normalizeText, searchTerms } from './normalize.ts';
import { TextCache } from './text-cache.ts';

/** Text matches beyond which a query is "common": the newest this many are searched, and the count says "more than". */
export const TEXT_MATCH_CAP = 10_000;
/** Ads written this recently are read again at every catch-up (see #catchUp). */
const RECENT_MS = 1000;

const vocabularies = new WeakMap<CatalogueSnapshot, Vocabulary>();

/** The words of the catalogue's names and labels (a query's misspellings are looked for among them). */
function vocabularyOf(catalogue: CatalogueSnapshot): Vocabulary {
  let vocabulary = vocabularies.get(catalogue);
  if (!vocabulary) {
    const names: string[] = [];
    const add = (...texts: string[]) => {
      for (const t of texts) names.push(...normalizeText(t).split(' '));
    };
    for (const t of catalogue.taxonomies) add(t.name_ar, t.name_en);
    for (const c of catalogue.categoryById.values()) add(c.name_ar, c.name_en);
    for (const a of catalogue.attributeById.values()) for (const o of a.options) add(o.ar, o.en);
    for (const c of catalogue.cities) add(c.name_ar, c.name_en);
    for (const a of catalogue.areaById.values()) add(a.name_ar, a.name_en);
    vocabulary = new Vocabulary(names.filter((w) => w !== ''));
    vocabularies.set(catalogue, vocabulary);
  }
  return vocabulary;
}

/**
 * A query's text as the search matches it: its words (stop words left out), each with the forms it
 * matches on, near spellings of the catalogue's words included (./analyzer.ts), and the keys of the
 * categories and places whose names it says (./catalogue-keys.ts). None: no text.
 */
export function queryTextTerms(catalogue: CatalogueSnapshot, q: string): TextTerms {
  const words = searchTerms(q);
  return words.length === 0 ? [] : withCatalogueKeys(catalogue, textTerms(words, vocabularyOf(catalogue)));
}

/**
 * By category id, how well a query names the category: for each of its words that the names of
 * the category, its ancestors and its taxonomy say (in either language, as a word or its stem; the
 * last word as typed so far), three when it is one of those names' own words as typed, else two
 * ("منازل" names Houses, whose name it is, more than Home & Garden, "المنزل", whose stem it shares);
 * plus one when the query says every word of the name of the category or of one above it, in one
 * language ("سيارات" names Cars and Toyota under it more than Car Parts, "قطع غيار سيارات").
 */
export function namedCategories(catalogue: CatalogueSnapshot, terms: TextTerms): Uint8Array {
  const named = new Uint8Array(catalogue.categorySpan);
  const saidByQuery = (word: NameWords) => terms.some((_, i) => says(terms, i, word));
  for (const [id, chain] of categoryWords(catalogue)) {
    let n = 0;
    for (let i = 0; i < terms.length; i++) {
      if (says(terms, i, chain)) n += chain.own.has(terms[i]?.[0] as string) ? 3 : 2;
    }
    if (n > 0 && chain.names.some((name) => name.length > 0 && name.every(saidByQuery))) n++;
    named[id] = n;
  }
  return named;
}

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
  /** With text (and facets): the categories the query names that hold results, as chips (./chips.ts). */
  namedCategories: CategoryChip[];
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
  /**
   * The ads changed within REREAD_WINDOW_MS of `#seen`, with the `updated_at` (ms) the index has of
   * each: what a catch-up compares the window with. Replaced when a rebuilt index is swapped in.
   */
  #applied = new Map<number, number>();
  #checking: Promise<void> | null = null;
  #rebuilding = false;
  /** Places moved while a rebuild was under way: build again once it is done. */
  #rebuildAgain = false;
  /** An index has been built once (rebuilds are swapped in whole: one is always there after). */
  #ready = false;

  readonly handle: DatabaseHandle;
  /** The text candidates of recent queries, re-checked against each catch-up's ads. */
  readonly textCache: TextCache;

  constructor(handle: DatabaseHandle) {
    this.handle = handle;
    const { db, dialect } = handle;
    this.textCache = new TextCache(
      {
        candidates: (terms, cap) => textCandidates(db, dialect, terms, cap),
        texts: (ids) => adTexts(db, ids),
      },
      TEXT_MATCH_CAP,
    );
  }

  /**
   * The ads whose text matches `q` (the newest TEXT_MATCH_CAP of a very common word), as fresh as
   * the index; with `relevance`, and when the matches are all there, their scores too.
   */
  async text(
    q: string,
    relevance: boolean,
  ): Promise<TextCandidates & { scores: Map<number, number> | null; terms: TextTerms }> {
    const terms = queryTextTerms(await this.catalogue(), q);
    if (terms.length === 0) return { ids: [], exact: true, scores: null, terms: [] };
    const { ids, exact } = await this.textCache.candidates(terms, () => this.index());
    const { db, dialect } = this.handle;
    // Scores for at most RANK_CAP matches (ranking more costs milliseconds a query); beyond, the
    // categories the query names and freshness order them (see SortKey).
    const scored = relevance && ids.length > 0 && ids.length <= RANK_CAP;
    const scores = scored ? await textScores(db, dialect, terms, RANK_CAP) : null;
    return { ids, exact, scores, terms };
  }

  catalogue(): Promise<CatalogueSnapshot> {
    const now = Date.now();
    if (!this.#catalogue || now - this.#catalogue.at > CATALOGUE_TTL_MS) {
      const value = loadCatalogueSnapshot(this.handle.db);
      this.#catalogue = { at: now, value };
      value.then(
        (fresh) => {
          // The catalogue changed since the index was built (a staff edit, maybe in another
          // process): its words, its tree and its places are the index's too (the map places ads by
          // the catalogue it was built with). Built again, swapped in when done; a rebuild under way
          // may have read the catalogue before the change: one more after it.
          const built = this.#index?.catalogue;
          if (!built) return;
          const reworded = built.signature !== fresh.signature;
          if (!reworded && !placesMoved(built, fresh)) return;
          if (reworded) this.textCache.clear();
          if (this.#rebuilding) this.#rebuildAgain = true;
          else this.#rebuild();
        },
        () => {
          this.#catalogue = null;
        },
      );
    }
    return this.#catalogue.value;
  }

  /** Forgets the catalogue snapshot (after a staff edit of the catalogue). */
  forgetCatalogue() {
    this.#catalogue = null;
  }

  /**
   * After a committed staff edit of the catalogue (server/domain/admin/catalogue.ts): a fresh
   * snapshot at once (names, options, the tree), the text candidates of recent queries forgotten
   * (the ads' catalogue words changed), and an index built on the new catalogue (its filterable
   * attributes and category order), swapped in when complete. Resolves when the new index is in.
   */
  async catalogueChanged(): Promise<void> {
    this.forgetCatalogue();
    this.textCache.clear();
    if (!this.#index) return;
    const started = Date.now();
    // Marked as rebuilding, so the new snapshot's signature does not start a second build.
    const running = this.#rebuilding;
    this.#rebuilding = true;
    try {
      const catalogue = await this.catalogue();
      const seen = await newestChange(this.handle.db);
      const fresh = await buildAdIndex(this.handle.db, this.handle.dialect, catalogue);
      this.#index = { built: started, value: Promise.resolve(fresh), catalogue };
      this.#seen = Math.min(this.#seen, seen);
      this.#applied = new Map();
    } finally {
      this.#rebuilding = running;
    }
  }

  /**
   * Whether searches are answered from a built index: the readiness check's question (a million
   * ads take seconds to index, and searches wait for it). With no index and no build under way —
   * the first call, or after a failed build — it starts one.
   */
  ready(): boolean {
    if (!this.#ready) this.#index ??= this.#build();
    return this.#ready;
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

  /**
   * The index as built or last caught up, without catching up now (the first call waits for the
   * first build): for answers a few seconds behind may be, such as the counts of suggestions.
   */
  current(): Promise<AdIndex> {
    this.#index ??= this.#build();
    return this.#index.value;
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
    state.value.then(
      () => {
        this.#ready = true;
      },
      () => {
        if (this.#index === state) this.#index = null;
      },
    );
    return state;
  }

  async #catchUp(index: AdIndex) {
    const { db } = this.handle;
    const applied = this.#applied;
    // Once the newest write is older than the window, a late commit or a write in its millisecond
    // would be a transaction longer than the window: only a newer write is news, and the newest
    // time says whether there is one.
    const quiet = Date.now() - this.#seen >= REREAD_WINDOW_MS;
    if (!quiet || (await newestChange(db)) > this.#seen) await this.#compareWindow(index, applied);
    const stale = Date.now() - (this.#index?.built ?? 0) > REBUILD_EVERY_MS;
    if (!this.#rebuilding && (stale || index.dead > Math.max(1000, index.live / 4))) this.#rebuild();
  }

  async #compareWindow(index: AdIndex, applied: Map<number, number>) {
    const { db } = this.handle;
    // Every ad changed in the window, against what the index has: a write newer than any seen, one
    // in the same millisecond as the newest seen, and one committed late (dated before writes
    // already seen, within the window) each show as an ad whose time is not the one applied. A
    // second write to one ad in the same millisecond as its first has the same time: ads written
    // in the last RECENT_MS are applied again at every catch-up.
    const recent = await changesSince(db, this.handle.dialect, new Date(this.#seen - REREAD_WINDOW_MS));
    const ids: number[] = [];
    let newest = this.#seen;
    const fresh = Date.now() - RECENT_MS;
    for (const { id, at } of recent) {
      if (applied.get(id) !== at || at >= fresh) ids.push(id);
      if (at > newest) newest = at;
    }
    if (ids.length > 0) {
      await refreshAds(db, index, this.#index?.catalogue ?? (await this.catalogue()), ids);
      this.textCache.changed(ids);
      for (const { id, at } of recent) applied.set(id, at);
    }
    // A rebuilt index swapped in meanwhile starts again from its own point (see #rebuild).
    if (applied === this.#applied) {
      this.#seen = newest;
      for (const [id, at] of applied) if (at < newest - REREAD_WINDOW_MS) applied.delete(id);
    }
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
        // The window is applied to the new index whole at the next catch-up.
        this.#applied = new Map();
      } finally {
        this.#rebuilding = false;
        if (this.#rebuildAgain) {
          this.#rebuildAgain = false;
          this.#rebuild();
        }
      }
    })().catch(() => {});
  }
}

/**
 * Whether a city or area of `fresh` is missing from `built` or lies elsewhere there: the map
 * positions of ads without a pin (and of ads in a new place) follow the catalogue.
 */
export function placesMoved(built: CatalogueSnapshot, fresh: CatalogueSnapshot): boolean {
  for (const c of fresh.cities) {
    const b = built.cityById.get(c.id);
    if (!b || b.lat !== c.lat || b.lng !== c.lng) return true;
  }
  for (const a of fresh.areaById.values()) {
    const b = built.areaById.get(a.id);
    if (!b || b.lat !== a.lat || b.lng !== a.lng) return true;
  }
  return false;
}

const engines = new WeakMap<DatabaseHandle, SearchEngine>();
/** Every engine of this process, told of catalogue changes committed here (held weakly). */
const live = new Set<WeakRef<SearchEngine>>();
onCatalogueChange(() => {
  for (const ref of live) {
    const engine = ref.deref();
    if (engine) engine.forgetCatalogue();
    else live.delete(ref);
  }
});

export function searchEngine(handle: DatabaseHandle): SearchEngine {
  let engine = engines.get(handle);
  if (!engine) {
    engine = new SearchEngine(handle);
    engines.set(handle, engine);
    live.add(new WeakRef(engine));
  }
  return engine;
}

export interface SearchOptions {
  page?: number;
  pageSize?: number;
  /** Leave out facet counting (home sections, the map's list). */
  facets?: boolean;
  /** Only ads featured now (the home page's featured section). */
  featured?: boolean;
  /** Only ads posted or reposted at or after this time, ms (a saved search's new results). */
  since?: number;
  now?: number;
}

/** Each taxonomy's categories, by catalogue snapshot (read-only lists). */
const taxonomyScopes = new WeakMap<CatalogueSnapshot, Map<number, number[]>>();

/** The categories a query lists (its category's subtree, or its taxonomy's); null for every one. Read only. */
function scopeOf(catalogue: CatalogueSnapshot, r: Pick<ResolvedQuery, 'categoryId' | 'taxonomyId'>): number[] | null {
  if (r.categoryId !== null) return catalogue.categoryById.get(r.categoryId)?.subtree ?? [];
  if (r.taxonomyId === null) return null;
  let scopes = taxonomyScopes.get(catalogue);
  if (!scopes) {
    scopes = new Map();
    taxonomyScopes.set(catalogue, scopes);
  }
  let ids = scopes.get(r.taxonomyId);
  if (!ids) {
    ids = [...catalogue.categoryById.values()].filter((c) => c.taxonomy_id === r.taxonomyId).map((c) => c.id);
    scopes.set(r.taxonomyId, ids);
  }
  return ids;
}

/** The scan filter of a resolved query (everything but city and area, which the caller counts). */
export function scanFilter(
  catalogue: CatalogueSnapshot,
  r: ResolvedQuery,
  candidates: readonly number[] | null,
  now = Date.now(),
  featuredOnly = false,
  since: number | null = null,
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
    columns: [
      ...fieldFilterTests(q, now),
      // (Whole milliseconds: featured after now is featured until at least now + 1.)
      ...(featuredOnly ? [{ kind: 'at-least', column: 'featuredUntil', min: now + 1 } as const] : []),
      ...(since !== null ? [{ kind: 'at-least', column: 'bumped', min: since } as const] : []),
    ],
    attributes: r.attributes.flatMap((a) => {
      const wanted = q.attributes[a.key];
      return wanted ? [attributeTest(a, wanted)] : [];
    }),
    candidates,
    bbox: null,
  };
}

/**
 * The sort key of each slot for a sort (higher first; ties go to the higher ad id): the last bump
 * for newest, the LYD price either way (ads without an amount last), the text score for relevance.
 * One class whatever the sort, so the loops that ask it a million times see one kind of call.
 */
class SortKey {
  readonly #kind: number;
  readonly #bumped: Float64Array;
  readonly #priceLyd: Float64Array;
  readonly #id: Int32Array;
  readonly #category: Uint16Array;
  readonly #scores: Map<number, number>;
  readonly #topScore: number;
  readonly #named: Uint8Array;

  /** `named`: by category id, how many of the query's words the category's names say (relevance). */
  constructor(index: AdIndex, sort: SearchSort, scores: Map<number, number> | null, named: Uint8Array | null = null) {
    this.#kind = sort === 'price-asc' ? -1 : sort === 'price-desc' ? 1 : sort === 'relevance' ? 2 : 0;
    this.#bumped = index.bumped;
    this.#priceLyd = index.priceLyd;
    this.#id = index.id;
    this.#category = index.category;
    this.#scores = scores ?? new Map();
    let top = 0;
    for (const v of this.#scores.values()) if (v > top) top = v;
    this.#topScore = top;
    this.#named = named ?? new Uint8Array(0);
  }

  of(s: number): number {
    const kind = this.#kind;
    if (kind === 0) return this.#bumped[s] as number;
    if (kind === 2) {
      // Relevance (docs/product/search.md): ads filed under what the query names first (by how many
      // of its words their category's names say), then the text's score in tenths of the best
      // one's, then the last bump (seconds: under 10^10 until the year 2286).
      const named = this.#named[this.#category[s] as number] ?? 0;
      const score = this.#scores.get(this.#id[s] as number) ?? 0;
      const tier = this.#topScore > 0 ? Math.round((10 * score) / this.#topScore) : 0;
      return (named * 11 + tier) * 1e10 + (this.#bumped[s] as number) / 1e3;
    }
    const p = this.#priceLyd[s] as number;
    return Number.isNaN(p) ? Number.NEGATIVE_INFINITY : p * kind;
  }
}

/**
 * The best `k` slots by key (higher first, ties to the higher ad id): a bounded min-heap in typed
 * arrays whose root is the worst kept, so most of a million offers cost one comparison.
 */
export class TopK {
  readonly k: number;
  readonly ids: Int32Array;
  readonly keys: Float64Array;
  readonly slots: Int32Array;
  size = 0;

  constructor(k: number, ids: Int32Array) {
    this.k = k;
    this.ids = ids;
    this.keys = new Float64Array(k);
    this.slots = new Int32Array(k);
  }

  /** Whether `k` slots are kept. */
  get full() {
    return this.size === this.k;
  }

  /** The key of the worst slot kept (when full). */
  get worst() {
    return this.keys[0] as number;
  }

  /** Whether the slot at heap position i is worse than the one at j. */
  #worseAt(i: number, j: number): boolean {
    const ki = this.keys[i] as number;
    const kj = this.keys[j] as number;
    return (
      ki < kj ||
      (ki === kj && (this.ids[this.slots[i] as number] as number) < (this.ids[this.slots[j] as number] as number))
    );
  }

  #swap(i: number, j: number) {
    const { keys, slots } = this;
    const tk = keys[i] as number;
    const ts = slots[i] as number;
    keys[i] = keys[j] as number;
    slots[i] = slots[j] as number;
    keys[j] = tk;
    slots[j] = ts;
  }

  offer(s: number, key: number) {
    const { keys, slots } = this;
    if (this.size < this.k) {
      let i = this.size++;
      keys[i] = key;
      slots[i] = s;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.#worseAt(i, p)) break;
        this.#swap(i, p);
        i = p;
      }
      return;
    }
    if (this.k === 0) return;
    const root = keys[0] as number;
    if (key < root || (key === root && (this.ids[s] as number) < (this.ids[slots[0] as number] as number))) return;
    keys[0] = key;
    slots[0] = s;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.#worseAt(l, m)) m = l;
      if (r < this.size && this.#worseAt(r, m)) m = r;
      if (m === i) return;
      this.#swap(i, m);
      i = m;
    }
  }

  /** Kept slots, best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((a, b) => (this.#worseAt(a, b) ? 1 : -1));
    return order.map((i) => this.slots[i] as number);
  }
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

/**
 * The best `k` matches of a plain query (see `isPlain`) by walking the index's order of the sort
 * until `k` are found, then the tail: for a page of a large result, a few hundred slots instead of
 * every one.
 */
function walkInOrder(index: AdIndex, sort: OrderedSort, matches: (slot: number) => boolean, key: SortKey, best: TopK) {
  runs: for (const { order, from, to, reverse } of index.orderRuns(sort)) {
    if (order === null) continue;
    const n = to - from;
    for (let j = 0; j < n; j++) {
      const s = order[reverse ? to - 1 - j : from + j] as number;
      if (!matches(s)) continue;
      const k = key.of(s);
      // The rest of a run is no better than this slot; in a reversed run an equal key may still win on its id.
      if (best.full && (k < best.worst || (k === best.worst && !reverse))) break runs;
      best.offer(s, k);
    }
  }
  for (let s = index.size - 1; s >= index.sealed; s--) if (matches(s)) best.offer(s, key.of(s));
}

/** Counts of a plain query from the index's tables: by city (any city), by area of the city, by category (the place's). */
function countPlain(
  index: AdIndex,
  categories: Uint8Array | null,
  place: { cityId: number | null; areaId: number | null },
  counts: { cities: Uint32Array; areas: Uint32Array; categories: Uint32Array },
): number {
  const { cityId, areaId } = place;
  let total = 0;
  const rows = Math.min(index.byCategoryCity.rows, counts.categories.length);
  for (let c = 0; c < rows; c++) {
    if (categories !== null && categories[c] !== 1) continue;
    const byCity = index.byCategoryCity.row(c);
    const byArea = index.byCategoryArea.row(c);
    let inCategory = 0;
    for (let city = 0; city < byCity.length; city++) {
      const n = byCity[city] as number;
      if (n === 0) continue;
      if (city < counts.cities.length) counts.cities[city] += n;
      inCategory += n;
    }
    if (cityId !== null) {
      for (let area = 0; area < Math.min(byArea.length, counts.areas.length); area++) {
        counts.areas[area] += byArea[area] as number;
      }
    }
    const n =
      areaId !== null
        ? index.byCategoryArea.at(c, areaId)
        : cityId !== null
          ? index.byCategoryCity.at(c, cityId)
          : inCategory;
    counts.categories[c] = n;
    total += n;
  }
  return total;
}

/**
 * Counts the slots of found[0, n) by their key into `counts`, and keeps in place those whose key is
 * `wanted` (every one when it is -1); returns how many it kept.
 */
function countAndKeep(found: Int32Array, n: number, keys: Uint16Array, counts: Uint32Array, wanted: number): number {
  if (wanted < 0) {
    for (let i = 0; i < n; i++) counts[keys[found[i] as number] as number]++;
    return n;
  }
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = found[i] as number;
    const key = keys[s] as number;
    counts[key]++;
    found[k] = s;
    k += +(key === wanted);
  }
  return k;
}

/** Runs a resolved query: one page of ad ids, the count, and the facets. */
export async function searchAds(
  handle: DatabaseHandle,
  resolved: ResolvedQuery,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const engine = searchEngine(handle);
  const q = resolved.query;
  const [index, text] = await Promise.all([engine.index(), q.q ? engine.text(q.q, q.sort === 'relevance') : null]);
  const catalogue = await engine.catalogue();
  return { ...rankIndex(index, catalogue, resolved, text, options), exact: text ? text.exact : true };
}

/**
 * The in-memory half of a search (pure and synchronous): the page, count and facets of a resolved
 * query over the index, text already narrowed to `text`. A plain query (see `isPlain`) is counted
 * from the index's tables and paged by walking the sort's order; any other is one pass over the
 * fewest slots that hold its matches. `exhaustive` takes the pass over every slot for any query:
 * the reference the faster ways are tested against.
 */
export function rankIndex(
  index: AdIndex,
  catalogue: CatalogueSnapshot,
  resolved: ResolvedQuery,
  text: { ids: readonly number[]; scores: Map<number, number> | null; terms?: TextTerms } | null,
  options: SearchOptions & { exhaustive?: boolean } = {},
): Omit<SearchResult, 'exact'> {
  const q = resolved.query;
  const pageSize = options.pageSize ?? RESULTS_PAGE_SIZE;
  const page = options.page ?? 1;
  const filter = scanFilter(
    catalogue,
    resolved,
    text ? text.ids : null,
    options.now,
    options.featured,
    options.since ?? null,
  );
  const best = new TopK(page * pageSize, index.id);
  const wantChips = options.facets !== false && text?.terms !== undefined && text.terms.length > 0;
  const named = (q.sort === 'relevance' || wantChips) && text?.terms ? namedCategories(catalogue, text.terms) : null;
  const key = new SortKey(index, q.sort, text?.scores ?? null, q.sort === 'relevance' ? named : null);
  const wantFacets = options.facets !== false;
  const cityCounts = new Uint32Array(catalogue.citySpan);
  const areaCounts = new Uint32Array(catalogue.areaSpan);
  const categoryCounts = new Uint32Array(catalogue.categorySpan);
  const { cityId, areaId } = resolved;
  const cityOf = index.city;
  const areaOf = index.area;
  const categoryOf = index.category;
  let total = 0;
  if (isPlain(filter) && !options.exhaustive) {
    // Counts from the tables; the page from the sort's order (or a scan of the fewest slots that
    // hold it, when the matches are too thin for a walk to find a page soon).
    total = countPlain(index, filter.categories, resolved, {
      cities: cityCounts,
      areas: areaCounts,
      categories: categoryCounts,
    });
    const { alive } = index;
    const cats = filter.categories;
    const matches = (s: number) =>
      alive[s] === 1 &&
      (cats === null || cats[categoryOf[s] as number] === 1) &&
      (cityId === null || cityOf[s] === cityId) &&
      (areaId === null || areaOf[s] === areaId);
    const runs = index.runsFor(filter, resolved);
    const cost = runs === null ? index.size : scanCost(runs);
    const walkCost = (INDIRECT_COST * page * pageSize * index.live) / Math.max(1, total);
    if (total === 0) {
      // Nothing to page through.
    } else if (walkCost < cost) {
      walkInOrder(index, q.sort === 'relevance' ? 'newest' : q.sort, matches, key, best);
    } else {
      for (const s of index.matching(filter, runs)) if (matches(s)) best.offer(s, key.of(s));
    }
  } else {
    // One pass over the fewest slots that hold every match (every city's, for the city facet).
    const runs = options.exhaustive ? null : index.runsFor(filter, wantFacets ? null : resolved);
    // In stages, in place (the answer of `matching` is its scratch buffer): cities counted, then
    // those of the city kept; areas, the same; then the categories counted and the page picked from
    // what is left.
    const found = index.matching(filter, runs);
    let n = countAndKeep(found, found.length, cityOf, cityCounts, cityId ?? -1);
    // Areas only within a city (the facet lists the chosen city's).
    if (cityId !== null) n = countAndKeep(found, n, areaOf, areaCounts, areaId ?? -1);
    total = countAndKeep(found, n, categoryOf, categoryCounts, -1);
    for (let i = 0; i < total; i++) {
      const s = found[i] as number;
      best.offer(s, key.of(s));
    }
  }
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
  return {
    ids,
    total,
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
    namedCategories: wantChips && named ? categoryChips(catalogue, named, categoryCounts, resolved.categoryId) : [],
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
