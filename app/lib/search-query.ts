// The search query (docs/product/search.md): one normalised, serialisable object for `/posts`,
// category pages, the map, `GET /api/posts` and saved searches, read from and written to the URL.
//
// Reading is forgiving: a parameter that is malformed, out of range or unknown is dropped, never an
// error page (a shared link with a typo still shows ads). The server then checks the slugs and
// attribute keys against the catalogue (resolveQuery in server/domain/search/service.ts) and drops
// what does not exist. Writing gives one canonical form: fixed parameter order, defaults left out,
// so equal queries have equal URLs (one cache entry, one saved search).
//
// Each parameter is declared once in SEARCH_PARAMETERS / ATTRIBUTE_PARAMETERS / PAGE_PARAMETER: its
// reader, which the parser keeps the value of or drops when it refuses it, and next to it the schema
// the API's OpenAPI document (server/http/openapi.ts) describes it with. The readers are plain
// functions, not Zod schemas, because the browser parses the query too (the listing pages and the
// map) and Zod would weigh 25 KB of their scripts (docs/performance.md, "First-load JavaScript");
// the schemas are written with the server's Zod, passed in, so this module never loads it. The
// filters on fields of the ad (photos, posted within…) are declared whole, parameter to panel, in
// ./search-filters.ts.
import type { ZodType, z } from 'zod';
import { normaliseNumber } from './digits.ts';
import { oneOf } from './one-of.ts';
import {
  FIELD_FILTER_NAMES,
  FIELD_FILTERS,
  FIELD_FILTERS_OFF,
  type FieldFilterValues,
  fieldFilterOn,
  readFieldFilters,
  writeFieldFilters,
} from './search-filters.ts';
import { SLUG_PATTERN } from './slug.ts';

export const SORTS = ['newest', 'price-asc', 'price-desc', 'relevance'] as const;
export type SearchSort = (typeof SORTS)[number];
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
const MAX_OPTIONS = 20;
const MAX_AMOUNT = 1e12;

export type AttributeFilter =
  | { kind: 'options'; options: string[] }
  | { kind: 'range'; min: number | null; max: number | null }
  | { kind: 'bool'; value: boolean };

/** The filters on fields of the ad (photos, posted within…) are declared in ./search-filters.ts. */
export interface SearchQuery extends FieldFilterValues {
  q: string | null;
  taxonomy: string | null;
  category: string | null;
  city: string | null;
  area: string | null;
  priceMin: number | null;
  priceMax: number | null;
  currency: SearchCurrency;
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
  ...FIELD_FILTERS_OFF,
  sort: 'newest',
  attributes: {},
};

/** The order of a query that names none: the best matches first for text, else the newest. */
export const defaultSort = (query: Pick<SearchQuery, 'q'>): SearchSort => (query.q === null ? 'newest' : 'relevance');

/** A query of these parts, the rest empty (its order the default for its text). */
export function queryWith(parts: Partial<SearchQuery>): SearchQuery {
  const query = { ...EMPTY_QUERY, ...parts };
  return parts.sort === undefined ? { ...query, sort: defaultSort(query) } : query;
}

/** Collapses white space and cuts at the length limit; null when nothing is left. */
export function cleanText(value: string | null): string | null {
  if (value === null) return null;
  const text = value.replace(/\s+/g, ' ').trim().slice(0, QUERY_MAX_LENGTH).trim();
  return text === '' ? null : text;
}

/**
 * A URL parameter of the query: `read` gives its value, or null when it refuses what was written
 * (the parameter is then dropped, never an error); `schema` is what the API's OpenAPI document says
 * it accepts, written with the Zod the server passes in (server/http/api.ts).
 */
export interface QueryParameter<T> {
  read: (raw: string) => T | null;
  schema: (zod: typeof z) => ZodType;
}

const slug = (description: string): QueryParameter<string> => ({
  read: (raw) => (SLUG_PATTERN.test(raw) ? raw : null),
  schema: (zod) => zod.string().regex(SLUG_PATTERN).meta({ description }),
});

/** Up to 13 digits, with any decimals (cut); after normaliseNumber. */
const AMOUNT = /^\d{1,13}(\.\d+)?$/;

/** A whole non-negative amount as typed (Arabic-Indic digits, separators) up to MAX_AMOUNT; decimals are cut. */
const amount = (description: string): QueryParameter<number> => ({
  read: (raw) => {
    const typed = normaliseNumber(raw);
    if (!AMOUNT.test(typed)) return null;
    const n = Math.floor(Number(typed));
    return n <= MAX_AMOUNT ? n : null;
  },
  schema: (zod) =>
    zod
      .string()
      .meta({ description: `${description}: a whole amount up to ${MAX_AMOUNT} (Arabic-Indic digits accepted)` }),
});

/** Up to 13 digits and 6 decimals, maybe negative; after normaliseNumber. */
const BOUND = /^-?\d{1,13}(\.\d{1,6})?$/;

/** A bound of a number attribute (may be negative or decimal), as typed. */
const bound = (description: string): QueryParameter<number> => ({
  read: (raw) => {
    const typed = normaliseNumber(raw);
    return BOUND.test(typed) ? Number(typed) : null;
  },
  schema: (zod) => zod.string().meta({ description }),
});

/** The URL parameter of each field filter, by name. */
function fieldParameters() {
  return Object.fromEntries(FIELD_FILTER_NAMES.map((name) => [name, FIELD_FILTERS[name].parameter])) as {
    [K in keyof typeof FIELD_FILTERS]: (typeof FIELD_FILTERS)[K]['parameter'];
  };
}

const isCurrency = oneOf(SEARCH_CURRENCIES);
const isSort = oneOf(SORTS);

/**
 * The query's parameters. A value a reader refuses is dropped; the rules between parameters (a
 * category drops the taxonomy, an area needs its city, relevance needs text) are parseSearchQuery's.
 */
export const SEARCH_PARAMETERS = {
  q: {
    read: cleanText,
    schema: (zod) =>
      zod.string().meta({
        description: `Text, Arabic-aware (alef forms, taa marbuta, alef maqsura, harakat, tatweel, Arabic-Indic digits), the last word a prefix; white space collapsed, cut at ${QUERY_MAX_LENGTH} characters`,
      }),
  } satisfies QueryParameter<string>,
  taxonomy: slug('Taxonomy slug (ignored with `category`, which implies it)'),
  category: slug('Category slug: that category and every one below it'),
  city: slug('City slug'),
  area: slug('Area slug, of `city` (ignored without it)'),
  price_min: amount('Lowest price'),
  price_max: amount('Highest price'),
  currency: {
    read: (raw) => (isCurrency(raw) ? raw : null),
    schema: (zod) => zod.enum(SEARCH_CURRENCIES).default('LYD').meta({ description: 'Currency of the price bounds' }),
  } satisfies QueryParameter<SearchCurrency>,
  ...fieldParameters(),
  sort: {
    read: (raw) => (isSort(raw) ? raw : null),
    schema: (zod) =>
      zod.enum(SORTS).meta({ description: 'By default `relevance` with `q`, `newest` without; `relevance` needs `q`' }),
  } satisfies QueryParameter<SearchSort>,
};

/** `f.{key}=…`: 1 or 0 (a boolean), else the well-formed options of a comma-separated list (at least one). */
function readAttribute(raw: string): AttributeFilter | null {
  if (raw === '1' || raw === '0') return { kind: 'bool', value: raw === '1' };
  const options = raw.split(',').filter((o) => OPTION.test(o));
  return options.length > 0 ? { kind: 'options', options } : null;
}

/** Attribute filters, by attribute key (`f.year.min=2015`). */
export const ATTRIBUTE_PARAMETERS = {
  'f.{key}': {
    read: readAttribute,
    schema: (zod) =>
      zod.union([zod.enum(['1', '0']), zod.string()]).meta({
        description: `A filterable attribute of the category: 1 or 0 (boolean), or up to ${MAX_OPTIONS} options, comma-separated or repeated (select, multiselect)`,
      }),
  } satisfies QueryParameter<AttributeFilter>,
  'f.{key}.min': bound('Lower bound of a number or year attribute'),
  'f.{key}.max': bound('Upper bound of a number or year attribute'),
};
const ATTRIBUTE_NAME = /^f\.([a-z][a-z0-9_]{0,49})(?:\.(min|max))?$/;

/** A page number as written: no sign, no leading zero, at most 4 digits (then at most MAX_RESULT_PAGES). */
const PAGE = /^[1-9]\d{0,3}$/;

/** `?page=`: 1 (the default, which canonical URLs leave out) to MAX_RESULT_PAGES. */
export const PAGE_PARAMETER: QueryParameter<number> = {
  read: (raw) => (PAGE.test(raw) && Number(raw) <= MAX_RESULT_PAGES ? Number(raw) : null),
  schema: (zod) =>
    zod
      .string()
      .regex(PAGE)
      .meta({ description: `Page 1 (the default) to ${MAX_RESULT_PAGES}. Another value answers 404` }),
};

/** The value of a parameter as its reader reads it, or null when absent or refused. */
function read<T>(parameter: QueryParameter<T>, value: string | null): T | null {
  return value === null ? null : parameter.read(value);
}

/** Reads a query from URL parameters, dropping whatever is malformed. */
export function parseSearchQuery(params: URLSearchParams): SearchQuery {
  const p = SEARCH_PARAMETERS;
  const query: SearchQuery = { ...EMPTY_QUERY, ...readFieldFilters(params), attributes: {} };
  query.q = read(p.q, params.get('q'));
  query.category = read(p.category, params.get('category'));
  query.taxonomy = query.category === null ? read(p.taxonomy, params.get('taxonomy')) : null;
  query.city = read(p.city, params.get('city'));
  query.area = query.city === null ? null : read(p.area, params.get('area'));
  query.priceMin = read(p.price_min, params.get('price_min'));
  query.priceMax = read(p.price_max, params.get('price_max'));
  if (query.priceMin !== null && query.priceMax !== null && query.priceMin > query.priceMax) {
    [query.priceMin, query.priceMax] = [query.priceMax, query.priceMin];
  }
  query.currency = read(p.currency, params.get('currency')) ?? EMPTY_QUERY.currency;
  const sort = read(p.sort, params.get('sort'));
  query.sort = sort !== null && (sort !== 'relevance' || query.q !== null) ? sort : defaultSort(query);
  const ranges = new Map<string, { min: number | null; max: number | null }>();
  for (const [name, value] of params) {
    const m = ATTRIBUTE_NAME.exec(name);
    const key = m?.[1];
    if (!m || key === undefined) continue;
    const side = m[2] as 'min' | 'max' | undefined;
    if (side) {
      const b = read(ATTRIBUTE_PARAMETERS[`f.{key}.${side}`], value);
      if (b === null) continue;
      const r = ranges.get(key) ?? { min: null, max: null };
      r[side] = b;
      ranges.set(key, r);
    } else {
      const filter = read(ATTRIBUTE_PARAMETERS['f.{key}'], value);
      if (filter?.kind === 'bool') query.attributes[key] = filter;
      else if (filter?.kind === 'options') {
        // A form's checkboxes repeat the parameter; a link lists the options with commas.
        const before = query.attributes[key];
        const had = before?.kind === 'options' ? before.options : [];
        query.attributes[key] = {
          kind: 'options',
          options: [...new Set([...had, ...filter.options])].slice(0, MAX_OPTIONS).sort(),
        };
      }
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
  writeFieldFilters(query, p);
  if (query.sort !== defaultSort(query)) p.set('sort', query.sort);
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
    FIELD_FILTER_NAMES.some((name) => fieldFilterOn(query, name)) ||
    Object.keys(query.attributes).length > 0
  );
}

/**
 * The page number of `?page=`: 1 when absent; null when it is not a page a listing offers (0, junk,
 * or past MAX_RESULT_PAGES).
 */
export function parsePage(params: URLSearchParams): number | null {
  const raw = params.get('page');
  return raw === null ? 1 : read(PAGE_PARAMETER, raw);
}
