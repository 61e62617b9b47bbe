import { Stack, Title } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { AdCards, Pager } from '~/components/ads/ad-parts.tsx';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { TileGrid, useCountCaption } from '~/components/catalog/category-grid.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, orNotFound, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { SLUG_PATTERN } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { listCategoryAds } from '../../../server/domain/ad-view.ts';
import { getCategoryPath, listChildren } from '../../../server/domain/catalog.ts';
import type { Route } from './+types/category';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!SLUG_PATTERN.test(params.taxonomy) || !SLUG_PATTERN.test(params.category)) throw notFound(request);
  const locale = localeOf(request);
  const path = await orNotFound(request, getCategoryPath(db(context), params.category));
  // The category slug is globally unique: a stale or wrong taxonomy in the URL moves to the right one.
  if (path.taxonomy.slug !== params.taxonomy) {
    const url = new URL(request.url);
    throw redirect(localizePath(`/${path.taxonomy.slug}/${path.category.slug}`, locale) + url.search, 301);
  }
  // ?page=N (from 2): stable URLs; a page past the end is not a page.
  const pageParam = new URL(request.url).searchParams.get('page');
  const page = pageParam === null ? 1 : /^[1-9]\d{0,4}$/.test(pageParam) ? Number(pageParam) : 0;
  if (page < 1) throw notFound(request);
  if (pageParam === '1')
    throw redirect(encodeURI(localizePath(`/${path.taxonomy.slug}/${path.category.slug}`, locale)), 301);
  const [children, listing] = await Promise.all([
    listChildren(db(context), path.taxonomy.id, path.category.id),
    listCategoryAds(db(context), path, page),
  ]);
  if (page > listing.pages) throw notFound(request);
  const title = localName(locale, path.category);
  const t = tFor(request);
  const { categoryIds, ...shown } = listing;
  const signedIn = !!(await currentUser(request, context));
  return data(
    {
      ...path,
      children,
      listing: { ...shown, page },
      meta: {
        title: page > 1 ? `${title} — ${t('catalog:page-n', { n: page })}` : title,
        description: t('catalog:category-description', { name: title }),
      },
    },
    // Tagged with every category it lists: an ad placed, edited or moved in any of them renews it.
    {
      headers: pageCacheHeaders(
        signedIn,
        categoryIds.map((id) => `category:${id}`),
      ),
    },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function CategoryPage({ loaderData, matches }: Route.ComponentProps) {
  const { t } = useTranslation('catalog');
  const { to, name } = useLocale();
  const caption = useCountCaption();
  const { taxonomy, trail, category, children, listing } = loaderData;
  const crumbs = [
    { label: t('common:nav.home'), href: to('/') },
    { label: name(taxonomy), href: to(`/${taxonomy.slug}`) },
    ...trail.map((c) => ({ label: name(c), href: to(`/${taxonomy.slug}/${c.slug}`) })),
  ];
  return (
    <Stack gap="lg">
      <JsonLd data={breadcrumbJsonLd(matches[0]?.loaderData?.origin ?? '', crumbs)} />
      <Breadcrumbs items={crumbs} />
      <Title order={1}>{name(category)}</Title>
      {children.length > 0 ? (
        <section aria-labelledby="subcategories-heading">
          <Title order={2} size="h4" mb="sm" id="subcategories-heading">
            {t('subcategories')}
          </Title>
          <TileGrid
            label={t('subcategories')}
            tiles={children.map((c) => ({
              ...c,
              icon: c.icon ?? category.icon ?? taxonomy.icon,
              href: to(`/${taxonomy.slug}/${c.slug}`),
              caption: caption(c.children_count),
            }))}
          />
        </section>
      ) : null}
      {listing.total > 0 ? (
        <section aria-labelledby="ads-heading">
          <Title order={2} size="h4" mb="sm" id="ads-heading">
            {t('ads-count', { count: listing.total })}
          </Title>
          <AdCards ads={listing.ads} label={t('ads-list')} />
          <Pager page={listing.page} pages={listing.pages} />
        </section>
      ) : (
        <EmptyState
          icon={<IconListSearch size={28} aria-hidden />}
          title={t('no-ads-yet.title')}
          description={t('no-ads-yet.description')}
          action={{ label: t('common:place-your-ad'), to: to('/place-your-ad') }}
        />
      )}
    </Stack>
  );
}
