// A page of search results with everything its page shows beside the cards: the count, the facets,
// the filters the query's scope offers and the category trail it is in. Used by `/posts` and the
// category pages (app/routes/search/listing.server.ts reads the query from their URL).

import { hasFilters, type SearchQuery } from '../../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../../db/index.ts';
import { type AdCard, cardsByIds } from '../ads/cards.ts';
import { attributeLabel } from '../catalog.ts';
import type { CatalogueSnapshot, SnapAttribute } from './catalogue.ts';
import type { CategoryChip } from './chips.ts';
import { filterableAttributes, type ResolvedQuery, searchAds } from './service.ts';

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
  /** With text: the categories the query names, as chips that narrow it (./chips.ts). */
  namedCategories: CategoryChip[];
}

const named = (x: Named): Named => ({ slug: x.slug, name_ar: x.name_ar, name_en: x.name_en });

/**
 * Page `page` of the listing of `resolved` (whose catalogue is `catalogue`), for the page at `base`;
 * null when the page is past the last one.
 */
export async function buildListing(
  database: DatabaseHandle,
  catalogue: CatalogueSnapshot,
  resolved: ResolvedQuery,
  page: number,
  base: string,
): Promise<Listing | null> {
  const found = await searchAds(database, resolved, { page });
  if (page > found.pages) return null;
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
          : (catalogue.cityById.get(resolved.cityId)?.areas ?? []).flatMap((id) => {
              const area = catalogue.areaById.get(id);
              return area ? [named(area)] : [];
            }),
      attributes: filterableAttributes(catalogue, resolved.categoryId, resolved.taxonomyId).map((a) => ({
        ...attributeLabel(a),
        min: a.min,
        max: a.max,
        options: a.options,
      })),
    },
    scope: { taxonomy: taxonomy ? named(taxonomy) : null, trail },
    base,
    filtered: hasFilters(resolved.query),
    categoryIds: found.categoryIds,
    namedCategories: found.namedCategories,
  };
}
