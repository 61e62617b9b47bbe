// The search query (docs/product/search.md): one normalised, serialisable object for `/posts`, category pages,
// the map, `GET /api/posts` and saved searches, read from and written to the URL.
//
// Reading is forgiving: a parameter that is malformed, out of range or unknown is dropped, never an
// error page (a shared link with a typo still shows ads). The server then checks the slugs and
// attribute keys against the catalogue (resolveQuery in server/domain/search/service.ts) and drops
// what does not exist. Writing gives one canonical form: fixed parameter order, defaults left out,
// so equal queries have equal URLs (one cache entry, one saved search).
//
//   q              text, at most 100 characters (Arabic-aware matching: docs/product/search.md)
//   taxonomy       taxonomy slug (dropped when `category` is given: the category implies it)
//   category       category slug: that category and every one below it
//   city, area     city slug; area slug (of that city)
//   price_min, price_max, currency   whole amounts in LYD (default) or USD
//   photos=1       only ads with photos
//   within=1|3|7|30  posted (or reposted) within that many days
//   sort           newest (default) | price-asc | price-desc | relevance (needs q)
//   f.<key>=a,b    a select/multiselect attribute is one of these options
//   f.<key>.min, f.<key>.max   a number/year attribute within bounds
//   f.<key>=1|0    a boolean attribute is yes / no
import { normaliseNumber } from './digits.ts';

export const SORTS = ['newest', 'price-asc', 'price-desc', 'relevance'] as const;
export type SearchSort = (typeof SORTS)[number];
export const WITHIN_DAYS = [1, 3, 7, 30] as const;
export type WithinDays = (typeof WITHIN_DAYS)[number];
export const SEARCH_CURRENCIES = ['LYD', 'USD'] as const;
export type SearchCurrency = (typeof SEARCH_CURRENCIES)[number];

export const QUERY_MAX_LENGTH = 100;
/** Ads per results page. */
export const RESULTS_PAGE_SIZE = 24;
/**
 * Pages a listing offers (50 × 24 = 1 200 ads): further than anyone reads; a narrower query serves
 * better than page 51. Deeper page numbers answer 404, so crawlers do not walk a million ads.
 */
export const MAX_RESULT_PAGES = 50;
/** Option values and attribute keys: what the catalogue allows (kebab-case, snake_case). */
const OPTION = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KEY = /^[a-z][a-z0-9_]{0,49}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_OPTIONS = 20;
const MAX_AMOUNT = 1e12;

export type AttributeFilter =
  | { kind: 'options'; options: string[] }
  | { kind: 'range'; min: number | null; max: number | null }
  | { kind: 'bool'; value: boolean };

export interface SearchQuery {
  q: string | null;
  taxonomy: string | null;
  category: string | null;
  city: string | null;
  area: string | null;
  priceMin: number | null;
  priceMax: number | null;
  currency: SearchCurrency;
  photos: boolean;
  within: WithinDays | null;
  sort: SearchSort;
  /** By attribute key, in key order. */
  attributes: Record<string, AttributeFilter>;
}

export const EMPTY_QUERY: SearchQuery = {
  q: null,
  taxonomy: null,
  category: null,
  city: null,
  area: null,
  priceMin: null,
  priceMax: null,
  currency: 'LYD',
  photos: false,
  within: null,
  sort: 'newest',
  attributes: {},
};

/** Collapses white space and cuts at the length limit; null when nothing is left. */
export function cleanText(value: string | null): string | null {
  if (value === null) return null;
  const text = value.replace(/\s+/g, ' ').trim().slice(0, QUERY_MAX_LENGTH).trim();
  return text === '' ? null : text;
}

const slugOrNull = (v: string | null) => (v !== null && SLUG.test(v) ? v : null);

/** A whole non-negative amount as typed (Arabic-Indic digits, separators), or null. */
function amount(v: string | null): number | null {
  if (v === null) return null;
  const n = normaliseNumber(v);
  if (!/^\d{1,13}(\.\d+)?$/.test(n)) return null;
  const value = Math.floor(Number(n));
  return value <= MAX_AMOUNT ? value : null;
}

/** A bound of a number attribute (may be negative or decimal), or null. */
function bound(v: string | null): number | null {
  if (v === null) return null;
  const n = normaliseNumber(v);
  return /^-?\d{1,13}(\.\d{1,6})?$/.test(n) ? Number(n) : null;
}

/** Reads a query from URL parameters, dropping whatever is malformed. */
export function parseSearchQuery(params: URLSearchParams): SearchQuery {
  const query: SearchQuery = { ...EMPTY_QUERY, attributes: {} };
  query.q = cleanText(params.get('q'));
  query.category = slugOrNull(params.get('category'));
  query.taxonomy = query.category === null ? slugOrNull(params.get('taxonomy')) : null;
  query.city = slugOrNull(params.get('city'));
  query.area = query.city === null ? null : slugOrNull(params.get('area'));
  query.priceMin = amount(params.get('price_min'));
  query.priceMax = amount(params.get('price_max'));
  if (query.priceMin !== null && query.priceMax !== null && query.priceMin > query.priceMax) {
    [query.priceMin, query.priceMax] = [query.priceMax, query.priceMin];
  }
  const currency = params.get('currency');
  if ((SEARCH_CURRENCIES as readonly string[]).includes(currency ?? '')) query.currency = currency as SearchCurrency;
  query.photos = params.get('photos') === '1';
  const within = Number(params.get('within'));
  if ((WITHIN_DAYS as readonly number[]).includes(within)) query.within = within as WithinDays;
  const sort = params.get('sort');
  if ((SORTS as readonly string[]).includes(sort ?? '') && (sort !== 'relevance' || query.q !== null)) {
    query.sort = sort as SearchSort;
  }
  const ranges = new Map<string, { min: number | null; max: number | null }>();
  for (const [name, value] of params) {
    const m = /^f\.([a-z][a-z0-9_]*)(?:\.(min|max))?$/.exec(name);
    if (!m || !KEY.test(m[1] as string) || m[1] === undefined) continue;
    const key = m[1];
    if (m[2]) {
      const b = bound(value);
      if (b === null) continue;
      const r = ranges.get(key) ?? { min: null, max: null };
      r[m[2] as 'min' | 'max'] = b;
      ranges.set(key, r);
    } else if (value === '1' || value === '0') {
      query.attributes[key] = { kind: 'bool', value: value === '1' };
    } else {
      // A form's checkboxes repeat the parameter; a link lists the options with commas.
      const before = query.attributes[key];
      const had = before?.kind === 'options' ? before.options : [];
      const options = [...new Set([...had, ...value.split(',').filter((o) => OPTION.test(o))])]
        .slice(0, MAX_OPTIONS)
        .sort();
      if (options.length > 0) query.attributes[key] = { kind: 'options', options };
    }
  }
  for (const [key, r] of ranges) {
    if (key in query.attributes) continue;
    if (r.min !== null && r.max !== null && r.min > r.max) [r.min, r.max] = [r.max, r.min];
    query.attributes[key] = { kind: 'range', ...r };
  }
  query.attributes = sortedAttributes(query.attributes);
  return query;
}

function sortedAttributes(attributes: Record<string, AttributeFilter>): Record<string, AttributeFilter> {
  return Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The canonical URL parameters of a query (defaults left out, fixed order). `omit` leaves out
 * what the page's path already says (a category page's category).
 */
export function searchParamsOf(query: SearchQuery, omit: { category?: boolean } = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (query.q) p.set('q', query.q);
  if (query.category && !omit.category) p.set('category', query.category);
  else if (query.taxonomy && !query.category) p.set('taxonomy', query.taxonomy);
  if (query.city) p.set('city', query.city);
  if (query.city && query.area) p.set('area', query.area);
  if (query.priceMin !== null) p.set('price_min', String(query.priceMin));
  if (query.priceMax !== null) p.set('price_max', String(query.priceMax));
  if (query.currency !== 'LYD' && (query.priceMin !== null || query.priceMax !== null)) {
    p.set('currency', query.currency);
  }
  if (query.photos) p.set('photos', '1');
  if (query.within !== null) p.set('within', String(query.within));
  if (query.sort !== 'newest') p.set('sort', query.sort);
  for (const [key, f] of Object.entries(sortedAttributes(query.attributes))) {
    if (f.kind === 'options') p.set(`f.${key}`, f.options.join(','));
    else if (f.kind === 'bool') p.set(`f.${key}`, f.value ? '1' : '0');
    else {
      if (f.min !== null) p.set(`f.${key}.min`, String(f.min));
      if (f.max !== null) p.set(`f.${key}.max`, String(f.max));
    }
  }
  return p;
}

/** `?…` for a query (and page, from 2), or '' when there is nothing to say. */
export function searchString(query: SearchQuery, page = 1, omit: { category?: boolean } = {}): string {
  const p = searchParamsOf(query, omit);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Whether a query narrows anything beyond its place in the catalogue (text, filters; `text: false` leaves text out). */
export function hasFilters(query: SearchQuery, { text = true } = {}): boolean {
  return (
    (text && query.q !== null) ||
    query.city !== null ||
    query.priceMin !== null ||
    query.priceMax !== null ||
    query.photos ||
    query.within !== null ||
    Object.keys(query.attributes).length > 0
  );
}

/**
 * The page number of `?page=`: 1 when absent; null when it is not a page a listing offers (0, 1
 * written out, junk, or past MAX_RESULT_PAGES).
 */
export function parsePage(params: URLSearchParams): number | null {
  const raw = params.get('page');
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,3}$/.test(raw) || raw === '1') return null;
  const page = Number(raw);
  return page <= MAX_RESULT_PAGES ? page : null;
}
