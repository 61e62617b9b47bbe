import { Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { BadgeChip } from '~/components/ads/ad-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates as dateFormat, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { BADGE_LIST } from '~/lib/validation/companies.ts';
import { can } from '../../../server/domain/access.ts';
import { type BadgeRow, listBadges } from '../../../server/domain/badges.ts';
import type { Route } from './+types/badges';

// The badges (docs/product/back-office.md, "Badges"): search by name or address name, filter by
// who may hold them, sort by name or date added; each row opens the badge and its holders.

export const middleware = guards('acl:view-badges');

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-badges');
  const query = parseListQuery(new URL(request.url).searchParams, BADGE_LIST);
  const page = await listBadges(db(context), query);
  return {
    meta: { title: tFor(request)('admin:badges.title'), noindex: true },
    query,
    page,
    canEdit: can(user, 'update-badges'),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Badges({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const dates = dateFormat(locale);
  const { query, page, canEdit } = loaderData;
  const number = numberFormat(locale);
  const columns: AdminColumn<BadgeRow>[] = [
    {
      key: 'name',
      label: t('badges.col.name'),
      sort: 'name',
      primary: true,
      render: (b) => (
        <Group gap="sm" wrap="nowrap">
          <BadgeChip badge={b} compact />
          <Anchor component={Link} to={to(`/admin/badges/${b.id}`)} fw={600}>
            <bdi>{name(b)}</bdi>
          </Anchor>
        </Group>
      ),
    },
    { key: 'slug', label: t('badges.col.slug'), render: (b) => <bdi dir="ltr">{b.slug}</bdi> },
    { key: 'target', label: t('badges.col.target'), render: (b) => t(`badges.targets.${b.target}`) },
    { key: 'holders', label: t('badges.col.holders'), render: (b) => number.format(b.holders) },
    { key: 'created', label: t('badges.col.created'), sort: 'created', render: (b) => dates.date(b.created_at) },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Box>
          <Title order={1}>{t('badges.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('badges.intro')}
          </Text>
        </Box>
        {canEdit ? (
          <Button component={Link} to={to('/admin/badges/new')}>
            {t('badges.new')}
          </Button>
        ) : null}
      </Group>
      <AdminList
        path={to('/admin/badges')}
        spec={BADGE_LIST}
        query={query}
        rows={page.rows}
        rowKey={(b) => String(b.id)}
        rowLabel={(b) => name(b)}
        columns={columns}
        next={page.next}
        caption={t('badges.list')}
        search={t('badges.search')}
        filters={[
          {
            name: 'target',
            label: t('badges.col.target'),
            any: t('badges.any'),
            options: [
              { value: 'user', label: t('badges.targets.user') },
              { value: 'company', label: t('badges.targets.company') },
            ],
          },
        ]}
        empty={{ title: t('badges.empty-title'), description: t('badges.empty') }}
      />
    </Stack>
  );
}
