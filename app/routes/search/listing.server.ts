// The loader half of a listing (docs/product/search.md): `/posts` and the category pages read the
// same query from the URL and hand it to the search service's listing
// (server/domain/search/listing.ts). Non-canonical URLs (empty fields of a submitted filter form,
// parameters in another order, values the catalogue does not know) move to the canonical one.
import { type RouterContextProvider, redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { localeOf, notFound, services } from '~/lib/route.server.ts';
import { parsePage, parseSearchQuery, searchString } from '~/lib/search-query.ts';
import { currentUser } from '~/lib/session.server.ts';
import { liveBanners, type PublicBanner } from '../../../server/domain/banners/public.ts';
import { markFavorited } from '../../../server/domain/favorites.ts';
import { buildListing, type Listing } from '../../../server/domain/search/listing.ts';
import { movedCategorySlug } from '../../../server/domain/search/moved-category.ts';
import { resolveQuery, searchEngine } from '../../../server/domain/search/service.ts';

export type { FilterAttribute, Listing, Named } from '../../../server/domain/search/listing.ts';

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
  } else {
    // A category named by an old slug (renamed or moved): 301 to the same query with its slug now,
    // as its category page does (server/domain/search/moved-category.ts).
    const moved = await movedCategorySlug(database.db, catalogue, parsed.category);
    if (moved !== null) throw redirect(movedCategoryUrl(url, locale, fixed.base, moved), 301);
  }
  const resolved = resolveQuery(catalogue, parsed);
  const page = parsePage(url.searchParams);
  const omit = { category: !!fixed.category };
  if (page === null) throw notFound(request);
  const canonical = searchString(resolved.query, page, omit);
  const incoming = new URLSearchParams(url.search);
  // A one-time notice of the page itself ("search saved"), not part of the query.
  incoming.delete('saved');
  if (incoming.toString() !== canonical.slice(1)) {
    // `?page=1` is page one for good (301); other clean-ups depend on the catalogue of the day (302).
    const pageOne = url.searchParams.get('page') === '1';
    throw redirect(encodeURI(localizePath(fixed.base, locale)) + canonical, pageOne ? 301 : 302);
  }
  const listing = await buildListing(database, catalogue, resolved, page, fixed.base);
  if (!listing) throw notFound(request);
  // A member's hearts show what they saved (their pages are never shared).
  const user = await currentUser(request, context);
  return user ? { ...listing, ads: await markFavorited(database.db, user.id, listing.ads) } : listing;
}

/** The request's address with the category's slug now in place of its old one; the other parameters kept as they were. */
export function movedCategoryUrl(url: URL, locale: ReturnType<typeof localeOf>, base: string, slug: string): string {
  const params = new URLSearchParams(url.search);
  params.set('category', slug);
  return `${encodeURI(localizePath(base, locale))}?${params.toString().replaceAll('%2C', ',')}`;
}

/**
 * The banner at the top of a listing: aimed at the listing's taxonomy, category trail and city, or
 * at no one in particular (docs/product/back-office.md, "Banners").
 */
export function listingBanners(
  request: Request,
  context: Readonly<RouterContextProvider>,
  listing: Listing,
): Promise<PublicBanner[]> {
  return liveBanners(
    services(context).database.db,
    'listing-top',
    {
      taxonomy: listing.scope.taxonomy?.slug ?? null,
      categories: listing.scope.trail.map((c) => c.slug),
      city: listing.query.city ? { slug: listing.query.city } : null,
    },
    localeOf(request),
  );
}
