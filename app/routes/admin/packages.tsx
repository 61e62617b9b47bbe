import { Anchor, Badge, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { usePrice } from '~/components/ads/ad-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { type ListSpec, listSearch, parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { PACKAGE_SORTS } from '~/lib/validation/packages.ts';
import { can } from '../../../server/domain/access.ts';
import { listPackages, type PackageRow } from '../../../server/domain/packages/packages.ts';
import type { Route } from './+types/packages';

// The packages staff sell (docs/product/back-office.md, "Packages"): searched by name, filtered by
// state and audience, sorted by date, price or duration. Each row opens its form; the page links to
// the subscriptions and, for staff who may change packages, to a new package and a grant.

export const middleware = guards('acl:view-packages');

export const PACKAGES_LIST: ListSpec = {
  sorts: PACKAGE_SORTS,
  filters: { active: ['on', 'off'], audience: ['individual', 'company'] },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-packages');
  const query = parseListQuery(new URL(request.url).searchParams, PACKAGES_LIST);
  const page = await listPackages(db(context), query as Parameters<typeof listPackages>[1]);
  const t = tFor(request);
  return {
    meta: { title: t('admin:packages.title'), noindex: true },
    query,
    page,
    canUpdate: can(user, 'update-packages'),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function PackagesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const price = usePrice();
  const number = numberFormat(locale);
  const { date } = dates(locale);
  const { query, page, canUpdate } = loaderData;
  const path = to('/admin/packages');
  const rowHref = (p: PackageRow) => to(`/admin/packages/${p.id}`) + listSearch(PACKAGES_LIST, query);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Box>
          <Title order={1}>{t('packages.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('packages.intro')}
          </Text>
        </Box>
        <Group gap="xs">
          <Button component={Link} to={to('/admin/packages/subscriptions')} variant="default" radius="xl" mih={44}>
            {t('packages.subscriptions-link')}
          </Button>
          {canUpdate ? (
            <>
              <Button component={Link} to={to('/admin/packages/grant')} variant="light" radius="xl" mih={44}>
                {t('packages.grant-link')}
              </Button>
              <Button
                component={Link}
                to={to('/admin/packages/new')}
                radius="xl"
                mih={44}
                leftSection={<IconPlus size={18} aria-hidden />}
              >
                {t('packages.new')}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      <AdminList
        path={path}
        spec={PACKAGES_LIST}
        query={query}
        rows={page.rows}
        next={page.next}
        rowKey={(p) => String(p.id)}
        rowLabel={(p) => name(p)}
        caption={t('packages.list')}
        search={t('packages.search')}
        filters={[
          {
            name: 'active',
            label: t('packages.col.state'),
            any: t('packages.any-state'),
            options: [
              { value: 'on', label: t('packages.state.on') },
              { value: 'off', label: t('packages.state.off') },
            ],
          },
          {
            name: 'audience',
            label: t('packages.col.audience'),
            any: t('packages.any-audience'),
            options: [
              { value: 'individual', label: t('packages.audience.individual') },
              { value: 'company', label: t('packages.audience.company') },
            ],
          },
        ]}
        columns={[
          {
            key: 'name',
            label: t('packages.col.name'),
            primary: true,
            render: (p) => (
              <Anchor component={Link} to={rowHref(p)} fw={600} dir="auto">
                {name(p)}
              </Anchor>
            ),
          },
          {
            key: 'price',
            label: t('packages.col.price'),
            sort: 'price',
            render: (p) => price({ price: p.price, currency: p.currency, price_type: 'fixed' }),
          },
          {
            key: 'duration',
            label: t('packages.col.duration'),
            sort: 'duration',
            render: (p) => t('packages.days', { count: p.duration_days }),
          },
          {
            key: 'gives',
            label: t('packages.col.gives'),
            render: (p) => (
              <Text size="sm">
                {t('packages.gives', {
                  ads: number.format(p.max_active_ads),
                  featured: number.format(p.featured_ads),
                  reposts: number.format(p.reposts),
                })}
              </Text>
            ),
          },
          {
            key: 'audience',
            label: t('packages.col.audience'),
            render: (p) => t(`packages.audience.${p.audience}`),
          },
          {
            key: 'subscriptions',
            label: t('packages.col.subscriptions'),
            render: (p) => (
              <Anchor
                component={Link}
                to={`${to('/admin/packages/subscriptions')}?package=${p.id}&state=current`}
                size="sm"
              >
                {t('packages.current', { count: p.current_subscriptions })}
              </Anchor>
            ),
          },
          {
            key: 'state',
            label: t('packages.col.state'),
            render: (p) =>
              p.active ? (
                <Badge color="teal.9" variant="filled" tt="none">
                  {t('packages.state.on')}
                </Badge>
              ) : (
                <Badge color="gray.7" variant="filled" tt="none">
                  {t('packages.state.off')}
                </Badge>
              ),
          },
          {
            key: 'created',
            label: t('packages.col.created'),
            sort: 'created',
            render: (p) => date(p.created_at),
          },
        ]}
        empty={{ title: t('packages.empty-title'), description: t('packages.empty') }}
      />
    </Stack>
  );
}
