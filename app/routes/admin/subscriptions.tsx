import { Anchor, Badge, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { usePrice } from '~/components/ads/ad-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { type ListSpec, parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { SUBSCRIPTION_SORTS, SUBSCRIPTION_STATES, type SubscriptionState } from '~/lib/validation/packages.ts';
import { can } from '../../../server/domain/access.ts';
import { packageNames } from '../../../server/domain/packages/packages.ts';
import { listSubscriptions, type SubscriptionRow } from '../../../server/domain/packages/subscriptions.ts';
import type { Route } from './+types/subscriptions';

// The subscriptions granted (docs/product/back-office.md, "Packages"): who holds which package,
// from when to when, what is left of it and how it was paid; searched by the member's name, email
// or phone, filtered by package and by state (running, waiting to start, ended).

export const middleware = guards('acl:view-packages');

const specOf = (packageIds: number[]): ListSpec => ({
  sorts: SUBSCRIPTION_SORTS,
  filters: { package: packageIds.map(String), state: SUBSCRIPTION_STATES },
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-packages');
  const database = db(context);
  const packages = await packageNames(database);
  const query = parseListQuery(new URL(request.url).searchParams, specOf(packages.map((p) => p.id)));
  const page = await listSubscriptions(database, query as Parameters<typeof listSubscriptions>[1]);
  return {
    meta: { title: tFor(request)('admin:subscriptions.title'), noindex: true },
    query,
    page,
    packages,
    canUpdate: can(user, 'update-packages'),
  };
}

export const meta: Route.MetaFunction = routeMeta;

const STATE_COLOR: Record<SubscriptionState, string> = { current: 'teal.9', upcoming: 'blue.9', ended: 'gray.7' };

export default function SubscriptionsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const price = usePrice();
  const { date } = dates(locale);
  const number = numberFormat(locale);
  const { query, page, packages, canUpdate } = loaderData;
  const spec = specOf(packages.map((p) => p.id));
  const left = (remaining: number, total: number) =>
    t('subscriptions.left', { count: remaining, total: number.format(total) });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Box>
          <Anchor component={Link} to={to('/admin/packages')} size="sm">
            {t('packages.title')}
          </Anchor>
          <Title order={1}>{t('subscriptions.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('subscriptions.intro')}
          </Text>
        </Box>
        {canUpdate ? (
          <Button component={Link} to={to('/admin/packages/grant')} radius="xl" mih={44}>
            {t('packages.grant-link')}
          </Button>
        ) : null}
      </Group>
      <AdminList
        path={to('/admin/packages/subscriptions')}
        spec={spec}
        query={query}
        rows={page.rows}
        next={page.next}
        rowKey={(s: SubscriptionRow) => String(s.id)}
        rowLabel={(s) => s.member?.name ?? (s.company ? name(s.company) : String(s.id))}
        caption={t('subscriptions.list')}
        search={t('subscriptions.search')}
        filters={[
          {
            name: 'package',
            label: t('subscriptions.col.package'),
            any: t('subscriptions.any-package'),
            options: packages.map((p) => ({ value: String(p.id), label: name(p) })),
          },
          {
            name: 'state',
            label: t('subscriptions.col.state'),
            any: t('subscriptions.any-state'),
            options: SUBSCRIPTION_STATES.map((s) => ({ value: s, label: t(`subscriptions.state.${s}`) })),
          },
        ]}
        columns={[
          {
            key: 'member',
            label: t('subscriptions.col.member'),
            primary: true,
            render: (s) =>
              s.member ? (
                <Stack gap={0}>
                  <Text fw={600} dir="auto">
                    {s.member.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    <bdi>{s.member.phone ?? s.member.email}</bdi>
                  </Text>
                </Stack>
              ) : s.company ? (
                <Stack gap={0}>
                  <Anchor component={Link} to={to(`/admin/companies/${s.company.id}`)} fw={600} dir="auto">
                    {name(s.company)}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {t('subscriptions.company')}
                  </Text>
                </Stack>
              ) : (
                <Text c="dimmed">{t('subscriptions.deleted-member')}</Text>
              ),
          },
          {
            key: 'package',
            label: t('subscriptions.col.package'),
            render: (s) => (
              <Anchor component={Link} to={to(`/admin/packages/${s.package.id}`)} dir="auto">
                {name(s.package)}
              </Anchor>
            ),
          },
          {
            key: 'state',
            label: t('subscriptions.col.state'),
            render: (s) => (
              <Badge color={STATE_COLOR[s.state]} variant="filled" tt="none">
                {t(`subscriptions.state.${s.state}`)}
              </Badge>
            ),
          },
          {
            key: 'ends',
            label: t('subscriptions.col.period'),
            sort: 'ends',
            render: (s) => t('subscriptions.period', { from: date(s.starts_at), to: date(s.ends_at) }),
          },
          {
            key: 'left',
            label: t('subscriptions.col.left'),
            render: (s) => (
              <Stack gap={0}>
                <Text size="sm">{t('subscriptions.ads', { count: s.max_active_ads })}</Text>
                <Text size="sm">
                  {t('subscriptions.featured')}: {left(s.featured_remaining, s.featured_ads)}
                </Text>
                <Text size="sm">
                  {t('subscriptions.reposts')}: {left(s.reposts_remaining, s.reposts)}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'payment',
            label: t('subscriptions.col.payment'),
            render: (s) =>
              s.payment ? (
                <Stack gap={0}>
                  <Text size="sm">
                    {price({ price: s.payment.amount, currency: s.payment.currency, price_type: 'fixed' })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`grant.method.${s.payment.method}`)} · <bdi>{s.payment.reference}</bdi>
                  </Text>
                </Stack>
              ) : (
                '—'
              ),
          },
          {
            key: 'granted',
            label: t('subscriptions.col.granted'),
            sort: 'granted',
            render: (s) => (
              <Stack gap={0}>
                <Text size="sm">{date(s.created_at)}</Text>
                {s.granted_by ? (
                  <Text size="xs" c="dimmed" dir="auto">
                    {s.granted_by}
                  </Text>
                ) : null}
              </Stack>
            ),
          },
        ]}
        empty={{ title: t('subscriptions.empty-title'), description: t('subscriptions.empty') }}
      />
    </Stack>
  );
}
