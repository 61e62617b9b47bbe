// The member's own-ad pages (`/profile/posts/{taxonomy}/{category}/{ad}` and its `/edit`, `/repost`):
// one reading of the URL and one canonical redirect, so a stale slug or category lands on the same
// page of the same ad.
import { redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { localeOf, notFound } from '~/lib/route.server.ts';
import { parseAdUrl } from '~/lib/slug.ts';

interface Params {
  taxonomy: string;
  category: string;
  ad: string;
}

interface AdRef {
  id: number;
  slug: string;
  taxonomy_slug: string;
  category_slug: string;
}

/** The ad id of the URL (`{slug}-{id}`); anything else is a 404. */
export function ownAdId(request: Request, params: Params): number {
  const url = parseAdUrl(params);
  if (!url) throw notFound(request);
  return url.id;
}

/** `/profile/posts/{taxonomy}/{category}/{slug}-{id}` of the ad, plus `suffix` (`/edit`, `/repost`). */
export function ownAdPath(ad: AdRef, suffix = ''): string {
  return `/profile/posts/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}${suffix}`;
}

/** 301 to the canonical URL of this page when the URL's slug or category is stale. */
export function ensureCanonical(request: Request, params: Params, ad: AdRef, suffix = ''): void {
  if (
    params.taxonomy === ad.taxonomy_slug &&
    params.category === ad.category_slug &&
    params.ad === `${ad.slug}-${ad.id}`
  )
    return;
  throw redirect(encodeURI(localizePath(ownAdPath(ad, suffix), localeOf(request))), 301);
}
