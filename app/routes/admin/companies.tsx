import { Anchor, Badge, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { SpriteIcon } from '~/components/ads/ad-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates as dateFormat, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { COMPANY_LIST } from '~/lib/validation/companies.ts';
import { can } from '../../../server/domain/access.ts';
import { type CompanyRow, listCompanies } from '../../../server/domain/companies/companies.ts';
import type { Route } from './+types/companies';

// The companies (docs/product/back-office.md, "Companies"): search by name or address name,
// filter by verification, sort by name or date added, keyset pages; each row opens the company.

export const middleware = guards('acl:view-companies');

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-companies');
  const query = parseListQuery(new URL(request.url).searchParams, COMPANY_LIST);
  const page = await listCompanies(db(context), query);
  return {
    meta: { title: tFor(request)('admin:companies.title'), noindex: true },
    query,
    page,
    canEdit: can(user, 'update-companies'),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Companies({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const dates = dateFormat(locale);
  const { query, page, canEdit } = loaderData;
  const number = numberFormat(locale);
  const columns: AdminColumn<CompanyRow>[] = [
    {
      key: 'name',
      label: t('companies.col.name'),
      sort: 'name',
      primary: true,
      render: (c) => (
        <Group gap="sm" wrap="nowrap">
          {c.logo ? (
            <img src={c.logo.small} alt="" width={32} height={32} style={{ objectFit: 'contain', flex: 'none' }} />
          ) : (
            <SpriteIcon name="store" size={32} />
          )}
          <Anchor component={Link} to={to(`/admin/companies/${c.id}`)} fw={600}>
            <bdi>{name(c)}</bdi>
          </Anchor>
        </Group>
      ),
    },
    { key: 'slug', label: t('companies.col.slug'), render: (c) => <bdi dir="ltr">{c.slug}</bdi> },
    { key: 'city', label: t('companies.col.city'), render: (c) => (c.city ? name(c.city) : '—') },
    { key: 'members', label: t('companies.col.members'), render: (c) => number.format(c.members) },
    {
      key: 'verified',
      label: t('companies.col.verified'),
      render: (c) =>
        c.verified ? (
          <Badge color="blue.8" variant="filled" tt="none">
            {t('companies.verified')}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            {t('companies.unverified')}
          </Text>
        ),
    },
    { key: 'created', label: t('companies.col.created'), sort: 'created', render: (c) => dates.date(c.created_at) },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Box>
          <Title order={1}>{t('companies.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('companies.intro')}
          </Text>
        </Box>
        {canEdit ? (
          <Button component={Link} to={to('/admin/companies/new')}>
            {t('companies.new')}
          </Button>
        ) : null}
      </Group>
      <AdminList
        path={to('/admin/companies')}
        spec={COMPANY_LIST}
        query={query}
        rows={page.rows}
        rowKey={(c) => String(c.id)}
        rowLabel={(c) => name(c)}
        columns={columns}
        next={page.next}
        caption={t('companies.list')}
        search={t('companies.search')}
        filters={[
          {
            name: 'verified',
            label: t('companies.col.verified'),
            any: t('companies.any'),
            options: [
              { value: 'yes', label: t('companies.verified') },
              { value: 'no', label: t('companies.unverified') },
            ],
          },
        ]}
        empty={{ title: t('companies.empty-title'), description: t('companies.empty') }}
      />
    </Stack>
  );
}
