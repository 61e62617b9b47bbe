// How a page tells the server's page cache (server/http/page-cache.ts) and shared caches that an
// anonymous visitor's copy may be kept briefly, and what it shows (cache tags, dropped when an ad
// of theirs changes). Members' pages are never shared.
import type { HeadersArgs } from 'react-router';
import { actionHeaders } from './action-headers.ts';

export const CACHE_TAGS_HEADER = 'x-souq-cache-tags';
/** The flash message of a completed action (app/lib/flash.server.ts): a request with it is personal. */
export const FLASH_COOKIE = 'souq.flash';
/** An ad page names its ad, so a view is counted when the page comes from the cache. */
export const COUNT_VIEW_HEADER = 'x-souq-count-view';
/**
 * Shared caches (ours, a CDN) may keep it a minute and use it five more while fetching a fresh copy;
 * browsers ask again every time (`max-age=0`): the same URL shows a member their own header once
 * they sign in. `Vary: Cookie` keeps a shared copy from ever reaching a member.
 */
export const SHARED_PAGE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';
export const PRIVATE_PAGE = 'private, no-cache';

/**
 * Loader headers of a page: shareable with its tags for anonymous visitors, private for members.
 * `viewOf`: the ad whose view a cached copy still counts.
 */
export function pageCacheHeaders(signedIn: boolean, tags: string[], viewOf?: number): Record<string, string> {
  if (signedIn) return { 'Cache-Control': PRIVATE_PAGE };
  return {
    'Cache-Control': SHARED_PAGE,
    Vary: 'Cookie',
    [CACHE_TAGS_HEADER]: tags.join(' '),
    ...(viewOf ? { [COUNT_VIEW_HEADER]: String(viewOf) } : {}),
  };
}

/** A route's `headers`: its loader's caching headers, and an action's Retry-After (429). */
export function pageHeaders(args: HeadersArgs): Headers {
  const headers = actionHeaders(args);
  for (const name of ['Cache-Control', 'Vary', CACHE_TAGS_HEADER, COUNT_VIEW_HEADER]) {
    const value = args.loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  if (headers.has('Retry-After')) headers.set('Cache-Control', 'no-store');
  return headers;
}
