import { Stack, Text, Title } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { data } from 'react-router';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { TileGrid, useCountCaption } from '~/components/catalog/category-grid.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { isTaxonomySegment } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { getTaxonomy, listChildren } from '../../../server/domain/catalog.ts';
import type { Route } from './+types/taxonomy';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isTaxonomySegment(params.taxonomy)) throw notFound(request);
  const t = tFor(request);
  const locale = localeOf(request);
  const taxonomy = await getTaxonomy(db(context), params.taxonomy);
  const categories = await listChildren(db(context), taxonomy.id, null);
  const title = localName(locale, taxonomy);
  const signedIn = !!(await currentUser(request, context));
  return data(
    { taxonomy, categories, meta: { title, description: t('catalog:taxonomy-description', { name: title }) } },
    { headers: pageCacheHeaders(signedIn, [`taxonomy:${taxonomy.id}`]) },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function TaxonomyPage({ loaderData, matches }: Route.ComponentProps) {
  const { t } = useT('catalog');
  const { to, name } = useLocale();
  const caption = useCountCaption();
  const { taxonomy, categories } = loaderData;
  const crumbs = [{ label: t('common:nav.home'), href: to('/') }, { label: name(taxonomy) }];
  return (
    <Stack gap="lg">
      <JsonLd data={breadcrumbJsonLd(matches[0]?.loaderData?.origin ?? '', crumbs)} />
      <Breadcrumbs items={crumbs} />
      <div>
        <Title order={1}>{name(taxonomy)}</Title>
        <Text c="dimmed">{t('categories-count', { count: taxonomy.categories_count })}</Text>
      </div>
      <TileGrid
        label={t('subcategories')}
        tiles={categories.map((c) => ({
          ...c,
          icon: c.icon ?? taxonomy.icon,
          href: to(`/${taxonomy.slug}/${c.slug}`),
          caption: caption(c.children_count),
        }))}
      />
      <EmptyState
        icon={<IconListSearch size={28} aria-hidden />}
        title={t('no-ads-yet.title')}
        description={t('no-ads-yet.description')}
        action={{ label: t('common:place-your-ad'), to: to('/place-your-ad') }}
      />
    </Stack>
  );
}
