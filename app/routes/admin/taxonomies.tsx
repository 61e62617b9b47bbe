import { Anchor, Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { useT } from '~/i18n/use-t.ts';
import { type ListSpec, parseListQuery } from '~/lib/admin-list.ts';
import { TAXONOMY_SORTS } from '~/lib/admin-lists.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { can } from '../../../server/domain/access.ts';
import { type AdminTaxonomy, listAdminTaxonomies } from '../../../server/domain/admin/catalogue.ts';
import type { Route } from './+types/taxonomies';

// The taxonomies (docs/product/back-office.md, "Catalogue"): every top-level group, switched on or
// not, with its counts, a link to its category tree and, for those who may edit them, to its
// attributes.

export const middleware = guards('acl:view-categories');

const SPEC: ListSpec<(typeof TAXONOMY_SORTS)[number]> = {
  sorts: TAXONOMY_SORTS,
  directions: { position: 'asc', slug: 'asc' },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-categories');
  const query = parseListQuery(new URL(request.url).searchParams, SPEC);
  const page = await listAdminTaxonomies(db(context), query);
  return {
    meta: { title: tFor(request)('admin:catalog.taxonomies.title'), noindex: true },
    query,
    page,
    canEditAttributes: can(user, 'update-taxonomies'),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Taxonomies({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const number = numberFormat(locale);
  const { query, page, canEditAttributes } = loaderData;
  const columns = [
    {
      key: 'name',
      label: t('catalog.taxonomies.col.name'),
      primary: true,
      render: (r: AdminTaxonomy) => (
        <Box>
          <Anchor component={Link} to={to(`/admin/categories/${r.slug}`)} fw={600}>
            {name(r)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {locale === 'ar' ? r.name_en : r.name_ar}
          </Text>
        </Box>
      ),
    },
    {
      key: 'slug',
      label: t('catalog.taxonomies.col.slug'),
      sort: 'slug',
      render: (r: AdminTaxonomy) => <bdi dir="ltr">{r.slug}</bdi>,
    },
    {
      key: 'position',
      label: t('catalog.taxonomies.col.position'),
      sort: 'position',
      render: (r: AdminTaxonomy) => number.format(r.position + 1),
    },
    {
      key: 'counts',
      label: t('catalog.taxonomies.col.counts'),
      render: (r: AdminTaxonomy) => (
        <Text size="sm">
          {t('catalog.taxonomies.counts', {
            categories: number.format(r.categories_count),
            ads: number.format(r.ads_count),
          })}
        </Text>
      ),
    },
    {
      key: 'status',
      label: t('catalog.taxonomies.col.status'),
      render: (r: AdminTaxonomy) =>
        r.active ? (
          <Badge variant="light" color="teal" tt="none">
            {t('catalog.active')}
          </Badge>
        ) : (
          <Badge variant="light" color="gray" tt="none">
            {t('catalog.inactive')}
          </Badge>
        ),
    },
    {
      key: 'links',
      label: t('catalog.taxonomies.col.links'),
      render: (r: AdminTaxonomy) => (
        <Group gap="md">
          <Anchor component={Link} to={to(`/admin/categories/${r.slug}`)} py={10}>
            {t('catalog.taxonomies.tree')}
          </Anchor>
          {canEditAttributes ? (
            <Anchor component={Link} to={to(`/admin/taxonomies/${r.id}/attributes`)} py={10}>
              {t('catalog.taxonomies.attributes', { count: r.attributes_count, n: number.format(r.attributes_count) })}
            </Anchor>
          ) : null}
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('catalog.taxonomies.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('catalog.taxonomies.intro')}
        </Text>
      </Box>
      <AdminList
        path={to('/admin/taxonomies')}
        spec={SPEC}
        query={query}
        rows={page.rows}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => name(r)}
        columns={columns}
        next={page.next}
        caption={t('catalog.taxonomies.title')}
        search={t('catalog.taxonomies.search')}
        empty={{ title: t('catalog.taxonomies.empty-title'), description: t('catalog.taxonomies.empty') }}
      />
    </Stack>
  );
}
