import { Stack } from '@mantine/core';
import { data, redirect } from 'react-router';
import { LazyBannerSlot, preloadBannerSlot } from '~/components/banners/lazy-banner.tsx';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { preloadListing, SearchListing } from '~/components/search/listing.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { searchString } from '~/lib/search-query.ts';
import { currentUser } from '~/lib/session.server.ts';
import { isTaxonomySegment, SLUG_PATTERN } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { categoryForOldSlug } from '../../../server/domain/admin/catalogue.ts';
import { bannerTag } from '../../../server/domain/banners/changes.ts';
import { getCategoryPath } from '../../../server/domain/catalog.ts';
import { listingBanners, loadListing } from '../search/listing.server.ts';
import type { Route } from './+types/category';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isTaxonomySegment(params.taxonomy) || !SLUG_PATTERN.test(params.category)) throw notFound(request);
  const locale = localeOf(request);
  const path = await getCategoryPath(db(context), params.category).catch(async (error: unknown) => {
    // A slug staff changed (or a category moved since the link was made): 301 to where it is now.
    const moved = await categoryForOldSlug(db(context), params.category);
    if (!moved) throw error;
    throw redirect(localizePath(`/${moved.taxonomy}/${moved.slug}`, locale) + new URL(request.url).search, 301);
  });
  // The category slug is globally unique: a stale or wrong taxonomy in the URL moves to the right one.
  if (path.taxonomy.slug !== params.taxonomy) {
    const url = new URL(request.url);
    throw redirect(localizePath(`/${path.taxonomy.slug}/${path.category.slug}`, locale) + url.search, 301);
  }
  const base = `/${path.taxonomy.slug}/${path.category.slug}`;
  // The filters load after the page and are rendered in place on the server (app/lib/lazy-component.tsx).
  const [listing] = await Promise.all([
    loadListing(request, context, { category: path.category.slug, base }),
    preloadListing(),
    preloadBannerSlot(),
  ]);
  const title = localName(locale, path.category);
  const t = tFor(request);
  const user = await currentUser(request, context);
  const banners = await listingBanners(request, context, listing);
  return data(
    {
      ...path,
      listing,
      banners,
      signedIn: !!user,
      meta: {
        title: listing.page > 1 ? `${title} — ${t('catalog:page-n', { n: listing.page })}` : title,
        description: t('catalog:category-description', { name: title }),
        noindex: listing.filtered,
        search: listing.filtered ? undefined : searchString(listing.query, listing.page, { category: true }),
      },
    },
    // Tagged with every category it lists: an ad placed, edited or moved in any of them renews it.
    {
      headers: pageCacheHeaders(!!user, [
        ...listing.categoryIds.map((id) => `category:${id}`),
        bannerTag('listing-top'),
      ]),
    },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function CategoryPage({ loaderData, matches }: Route.ComponentProps) {
  const { t } = useT('catalog');
  const { to, name } = useLocale();
  const { taxonomy, trail, category, listing, signedIn, banners } = loaderData;
  const crumbs = [
    { label: t('common:nav.home'), href: to('/') },
    { label: name(taxonomy), href: to(`/${taxonomy.slug}`) },
    ...trail.map((c) => ({ label: name(c), href: to(`/${taxonomy.slug}/${c.slug}`) })),
  ];
  return (
    <Stack gap="lg">
      <JsonLd data={breadcrumbJsonLd(matches[0]?.loaderData?.origin ?? '', crumbs)} />
      <Breadcrumbs items={crumbs} />
      <LazyBannerSlot banners={banners} label={t('common:banner.label')} />
      <SearchListing listing={listing} title={name(category)} signedIn={signedIn} />
    </Stack>
  );
}
