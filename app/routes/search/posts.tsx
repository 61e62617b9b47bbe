// `/posts` (docs/product/search.md): every published ad, searched and filtered by the URL's query.
import { Stack } from '@mantine/core';
import { data } from 'react-router';
import { z } from 'zod';
import { LazyBannerSlot, preloadBannerSlot } from '~/components/banners/lazy-banner.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { FormError } from '~/components/form-error.tsx';
import { preloadListing, SearchListing } from '~/components/search/listing.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { parseSearchQuery, searchParamsOf, searchString } from '~/lib/search-query.ts';
import { currentUser, requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { bannerTag } from '../../../server/domain/banners/changes.ts';
import { savedSearchNameOf, saveSearch } from '../../../server/domain/search/saved.ts';
import { resolveQuery, searchEngine } from '../../../server/domain/search/service.ts';
import type { Route } from './+types/posts';
import { listingBanners, loadListing } from './listing.server.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  // The filters load after the page and are rendered in place on the server (app/lib/lazy-component.tsx).
  const [listing] = await Promise.all([
    loadListing(request, context, { base: '/posts' }),
    preloadListing(),
    preloadBannerSlot(),
  ]);
  const locale = localeOf(request);
  const t = tFor(request);
  const { query } = listing;
  const place = listing.scope.trail.at(-1) ?? listing.scope.taxonomy;
  const title = query.q
    ? t('search:title-text', { q: query.q })
    : place
      ? localName(locale, place)
      : t('search:title-all');
  const signedIn = !!(await currentUser(request, context));
  const banners = await listingBanners(request, context, listing);
  return data(
    {
      listing,
      banners,
      title,
      signedIn,
      meta: {
        title: listing.page > 1 ? `${title} — ${t('catalog:page-n', { n: listing.page })}` : title,
        description: t('search:description'),
        // Text and filter combinations are endless: search engines get the plain listings only.
        noindex: listing.filtered,
        search: listing.filtered ? undefined : searchString(query, listing.page),
      },
    },
    {
      headers: pageCacheHeaders(signedIn, [
        ...(listing.categoryIds.length > 0 ? listing.categoryIds.map((id) => `category:${id}`) : ['ads']),
        bannerTag('listing-top'),
      ]),
    },
  );
}

/** "Save this search": the query of the URL, for the signed-in member; back to the listing with a flash. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const url = new URL(request.url);
  const locale = localeOf(request);
  if (form.get('intent') !== 'save-search') throw new Response(null, { status: 400 });
  const { database } = services(context);
  const catalogue = await searchEngine(database).catalogue();
  const resolved = resolveQuery(catalogue, parseSearchQuery(url.searchParams));
  const q = resolved.query;
  const name = savedSearchNameOf(catalogue, q, locale, tFor(request)('search:title-all'));
  return formAction(form, z.object({}), async () => {
    await saveSearch(db(context), user.id, resolved, name);
    const back = new URLSearchParams(searchParamsOf(q)).toString();
    return redirectWithFlash(`${encodeURI(localizePath('/posts', locale))}${back ? `?${back}` : ''}`, 'search-saved');
  });
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function Posts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('search');
  const { to, name } = useLocale();
  const { listing, title, signedIn, banners } = loaderData;
  const crumbs = [
    { label: t('common:nav.home'), href: to('/') },
    { label: t('title-all'), href: to('/posts') },
  ];
  const { taxonomy, trail } = listing.scope;
  if (taxonomy) {
    crumbs.push({ label: name(taxonomy), href: to(`/${taxonomy.slug}`) });
    for (const c of trail) crumbs.push({ label: name(c), href: to(`/${taxonomy.slug}/${c.slug}`) });
  }
  return (
    <Stack gap="md">
      <Breadcrumbs items={crumbs} />
      <FormError code={actionData?.formError} />
      <LazyBannerSlot banners={banners} label={t('common:banner.label')} />
      <SearchListing listing={listing} title={title} signedIn={signedIn} />
    </Stack>
  );
}
