// A taxonomy's page `/{taxonomy}` (docs/product/site.md): its top-level categories as tiles with
// their ad counts, then its newest ads and a link to all of them in the search listing. The empty
// state only shows when the taxonomy holds no published ad at all.
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { data, Link } from 'react-router';
import { AdCards } from '~/components/ads/ad-parts.tsx';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { TileGrid, useAdCountCaption } from '~/components/catalog/category-grid.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, services, tFor } from '~/lib/route.server.ts';
import { EMPTY_QUERY, searchString } from '~/lib/search-query.ts';
import { currentUser } from '~/lib/session.server.ts';
import { isTaxonomySegment } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { cardsByIds } from '../../../server/domain/ads/cards.ts';
import { getTaxonomy, listChildren } from '../../../server/domain/catalog.ts';
import { markFavorited } from '../../../server/domain/favorites.ts';
import { search } from '../../../server/domain/search/service.ts';
import type { Route } from './+types/taxonomy';

/** Newest ads shown on a taxonomy's page (three rows of four on wide screens). */
const TAXONOMY_ADS = 12;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isTaxonomySegment(params.taxonomy)) throw notFound(request);
  const t = tFor(request);
  const locale = localeOf(request);
  const { database } = services(context);
  const taxonomy = await getTaxonomy(db(context), params.taxonomy);
  const query = { ...EMPTY_QUERY, taxonomy: taxonomy.slug };
  const [categories, found] = await Promise.all([
    listChildren(db(context), taxonomy.id, null),
    search(database, query, { pageSize: TAXONOMY_ADS }),
  ]);
  const user = await currentUser(request, context);
  // A member's hearts show what they saved (their pages are never shared).
  const ads = await markFavorited(database.db, user?.id, await cardsByIds(database.db, found.ids));
  // Published ads under each top-level category (its whole subtree), from the same search.
  const counts = Object.fromEntries(found.facets.categories.map((f) => [f.slug, f.count]));
  const title = localName(locale, taxonomy);
  const signedIn = !!user;
  return data(
    {
      taxonomy,
      categories: categories.map((c) => ({ ...c, ads: counts[c.slug] ?? 0 })),
      ads,
      total: found.total,
      all: searchString(query),
      now: new Date().toISOString(),
      meta: { title, description: t('catalog:taxonomy-description', { name: title }) },
    },
    { headers: pageCacheHeaders(signedIn, [`taxonomy:${taxonomy.id}`]) },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function TaxonomyPage({ loaderData, matches }: Route.ComponentProps) {
  const { t } = useT('catalog');
  const { to, name } = useLocale();
  const caption = useAdCountCaption();
  const { taxonomy, categories, ads, total, all, now } = loaderData;
  const crumbs = [{ label: t('common:nav.home'), href: to('/') }, { label: name(taxonomy) }];
  return (
    <Stack gap="lg">
      <JsonLd data={breadcrumbJsonLd(matches[0]?.loaderData?.origin ?? '', crumbs)} />
      <Breadcrumbs items={crumbs} />
      <div>
        <Title order={1}>{name(taxonomy)}</Title>
        <Group gap="md" c="dimmed" data-testid="taxonomy-counts">
          <Text inherit>{t('ads-count', { count: total })}</Text>
          <Text inherit>{t('categories-count', { count: taxonomy.categories_count })}</Text>
        </Group>
      </div>
      <TileGrid
        label={t('subcategories')}
        tiles={categories.map((c) => ({
          ...c,
          icon: c.icon ?? taxonomy.icon,
          href: to(`/${taxonomy.slug}/${c.slug}`),
          caption: caption(c.ads),
        }))}
      />
      {ads.length > 0 ? (
        <section aria-labelledby="taxonomy-latest">
          <Group justify="space-between" align="baseline" mb="md" wrap="wrap">
            <Title order={2} size="h3" id="taxonomy-latest">
              {t('latest-in', { name: name(taxonomy) })}
            </Title>
            <Anchor component={Link} to={to('/posts') + all} py={10}>
              {t('all-ads-in', { name: name(taxonomy) })}
            </Anchor>
          </Group>
          <AdCards ads={ads} label={t('latest-in', { name: name(taxonomy) })} now={now} />
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
