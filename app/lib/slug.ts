import { parseId } from './ids.ts';

/** Lowercase ASCII words joined by single hyphens: every taxonomy, category, city and area slug. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * First path segments that belong to the site itself (the pages of app/routes.ts and the server's
 * own paths in server/http.ts), never to a taxonomy: `/admin/users/7` is not an ad in a taxonomy
 * called "admin". The catalogue routes answer 404 for them and no taxonomy may take one as its
 * slug (server/domain/catalog.ts, assertTaxonomySlug). tests/unit/slug.test.ts checks that every
 * first segment of the route table is here.
 */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([
  // Pages (app/routes.ts), in both locales.
  'en',
  'ar',
  'login',
  'register',
  'logout',
  'account',
  'admin',
  'faq',
  'about',
  'terms',
  'privacy',
  'support',
  'contact',
  'place-your-ad',
  'profile',
  'posts',
  'users',
  'notifications',
  'unsubscribe',
  // The server's own paths (server/http.ts and the routers it mounts).
  'api',
  'assets',
  'uploads',
  'images',
  'fonts',
  'locale',
  'builds',
  'sitemaps',
  'healthz',
  'readyz',
  // The realtime server's WebSocket and HTTP API (`/app/{key}`, `/apps/{id}/…`: docs/realtime.md).
  'app',
  'apps',
  // Paths the product plans that are not built yet: member pages.
  'favorites',
  'searches',
  'chats',
  'categories',
  'companies',
  'search',
]);

/** A slug a taxonomy may not take, and a first path segment that is never a taxonomy. */
export function isReservedSegment(segment: string): boolean {
  return RESERVED_SEGMENTS.has(segment.toLowerCase());
}

/** A path segment that can be a taxonomy's slug: the slug pattern, and not one of the site's own. */
export function isTaxonomySegment(segment: string): boolean {
  return SLUG_PATTERN.test(segment) && !isReservedSegment(segment);
}

/**
 * The `{slug}-{id}` segment of an ad URL (`{taxonomy}/{category}/{slug}-{id}`, docs/product/ads.md) with its
 * taxonomy and category segments: the id and the slug given, or null when any part is malformed.
 */
export function parseAdUrl(params: {
  taxonomy: string;
  category: string;
  ad: string;
}): { id: number; slug: string } | null {
  const match = /^(?:(.*)-)?(\d{1,12})$/.exec(params.ad);
  const id = parseId(match?.[2]);
  if (!match || id === null || !isTaxonomySegment(params.taxonomy) || !SLUG_PATTERN.test(params.category)) return null;
  return { id, slug: match[1] ?? '' };
}
