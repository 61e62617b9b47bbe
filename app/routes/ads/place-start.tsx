import { Stack, Text, Title } from '@mantine/core';
import { TileGrid } from '~/components/catalog/category-grid.tsx';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { listTaxonomies } from '../../../server/domain/catalog.ts';
import type { Route } from './+types/place-start';

// Place your ad, step 1 (docs/product/site.md): which section the ad belongs to.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  return {
    taxonomies: await listTaxonomies(db(context)),
    meta: { title: t('placing:place.title'), description: t('placing:place.description'), noindex: true },
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function PlaceStartPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to } = useLocale();
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('placing:place.title')}</Title>
        <Text c="dimmed">{t('placing:place.pick-section')}</Text>
      </div>
      <TileGrid
        label={t('placing:place.sections')}
        tiles={loaderData.taxonomies.map((x) => ({ ...x, href: to(`/place-your-ad/${x.slug}`) }))}
      />
    </Stack>
  );
}
