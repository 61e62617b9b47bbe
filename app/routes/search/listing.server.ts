// The loader half of a listing (docs/product/search.md): `/posts` and the category pages read the same query
// from the URL, run it through the search service and hand the page its cards, count, facets and
// what the filters panel offers. Non-canonical URLs (empty fields of a submitted filter form,
// parameters in another order, values the catalogue does not know) move to the canonical one.
import { type RouterContextProvider, redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { localeOf, notFound, services } from '~/lib/route.server.ts';
import { hasFilters, parsePage, parseSearchQuery, type SearchQuery, searchString } from '~/lib/search-query.ts';
import { type AdCard, cardsByIds } from '../../../server/domain/ad-view.ts';
import type { SnapAttribute } from '../../../server/domain/search/catalogue.ts';
import { filterableAttributes, resolveQuery, searchAds, searchEngine } from '../../../server/domain/search/service.ts';

export interface FilterAttribute {
  key: string;
  name_ar: string;
  name_en: string;
  type: SnapAttribute['type'];
  unit_ar: string | null;
  unit_en: string | null;
  min: number | null;
  max: number | null;
  options: { value: string; ar: string; en: string }[];
}

export interface Named {
  slug: string;
  name_ar: string;
  name_en: string;
}

export interface Listing {
  query: SearchQuery;
  page: number;
  pages: number;
  total: number;
  exact: boolean;
  ads: AdCard[];
  now: string;
  facets: Awaited<ReturnType<typeof searchAds>>['facets'];
  /** What the filters panel offers. */
  options: {
    taxonomies: Named[];
    cities: Named[];
    /** The chosen city's areas (none without a city: the form offers areas once a city is applied). */
    areas: Named[];
    attributes: FilterAttribute[];
  };
  /** The taxonomy and the category trail the query is in (top-level first). */
  scope: { taxonomy: Named | null; trail: Named[] };
  /** Where the listing lives: `/posts`, or a category page's path (Arabic form). */
  base: string;
  filtered: boolean;
  categoryIds: number[];
}

const named = (x: Named): Named => ({ slug: x.slug, name_ar: x.name_ar, name_en: x.name_en });

/**
 * Runs the listing of a request. `category`: the category page's own category (its slug is in the
 * path, not the query). Throws a redirect to the canonical URL, or a 404 for pages past the end.
 */
export async function loadListing(
  request: Request,
  context: Readonly<RouterContextProvider>,
  fixed: { category?: string; base: string },
): Promise<Listing> {
  const url = new URL(request.url);
  const locale = localeOf(request);
  const { database } = services(context);
  const engine = searchEngine(database);
  const catalogue = await engine.catalogue();
  const parsed = parseSearchQuery(url.searchParams);
  if (fixed.category) {
    parsed.category = fixed.category;
    parsed.taxonomy = null;
  }
  const resolved = resolveQuery(catalogue, parsed);
  const page = parsePage(url.searchParams);
  const omit = { category: !!fixed.category };
  const rawPage = url.searchParams.get('page');
  if (page === null && rawPage !== '1') throw notFound(request);
  const canonical = searchString(resolved.query, page ?? 1, omit);
  const incoming = new URLSearchParams(url.search);
  // A one-time notice of the page itself ("search saved"), not part of the query.
  incoming.delete('saved');
  if (incoming.toString() !== canonical.slice(1)) {
    // `?page=1` is page one for good (301); other clean-ups depend on the catalogue of the day (302).
    throw redirect(encodeURI(localizePath(fixed.base, locale)) + canonical, rawPage === '1' ? 301 : 302);
  }
  if (page === null) throw notFound(request);
  const found = await searchAds(database, resolved, { page });
  if (page > found.pages) throw notFound(request);
  const ads = await cardsByIds(database.db, found.ids);

  const category = resolved.categoryId !== null ? catalogue.categoryById.get(resolved.categoryId) : undefined;
  const trail: Named[] = [];
  for (let c = category; c; c = c.parent_id === null ? undefined : catalogue.categoryById.get(c.parent_id)) {
    trail.unshift(named(c));
  }
  const taxonomy = resolved.taxonomyId !== null ? catalogue.taxonomyById.get(resolved.taxonomyId) : undefined;
  return {
    query: resolved.query,
    page,
    pages: found.pages,
    total: found.total,
    exact: found.exact,
    ads,
    now: new Date().toISOString(),
    facets: found.facets,
    options: {
      taxonomies: catalogue.taxonomies.map(named),
      cities: catalogue.cities.map(named),
      areas:
        resolved.cityId === null
          ? []
          : (catalogue.cityById.get(resolved.cityId)?.areas.map((id) => named(catalogue.areaById.get(id) as Named)) ??
            []),
      attributes: filterableAttributes(catalogue, resolved.categoryId, resolved.taxonomyId).map((a) => ({
        key: a.key,
        name_ar: a.name_ar,
        name_en: a.name_en,
        type: a.type,
        unit_ar: a.unit_ar,
        unit_en: a.unit_en,
        min: a.min,
        max: a.max,
        options: a.options,
      })),
    },
    scope: { taxonomy: taxonomy ? named(taxonomy) : null, trail },
    base: fixed.base,
    filtered: hasFilters(resolved.query),
    categoryIds: found.categoryIds,
  };
}
