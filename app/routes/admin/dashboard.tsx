import { Anchor, Box, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useMatches } from 'react-router';
import { DayChart } from '~/components/admin/dashboard-chart.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { can, type StaffUser } from '../../../server/domain/access.ts';
import { loadDashboard, type Ranked } from '../../../server/domain/dashboard.ts';
import type { Route } from './+types/dashboard';

// `/admin` (docs/product/back-office.md, "Dashboard"): what needs the team now (the moderation
// queue, open reports, failed jobs), what the site grows by (new ads and members per day), where
// the live ads are (top categories and cities), and contact messages. Any staff member; the
// figures link to the screens the viewer may open.

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const dashboard = await loadDashboard(services(context).database);
  return {
    dashboard,
    now: new Date().toISOString(),
    meta: { title: t('common:admin.nav.dashboard'), noindex: true },
  };
}

export const meta: Route.MetaFunction = routeMeta;

function Stat({
  label,
  value,
  detail,
  to,
  alert,
}: {
  label: string;
  value: string;
  detail?: ReactNode;
  to?: string | null;
  alert?: boolean;
}) {
  return (
    <Card withBorder radius="lg" padding="md">
      <Text size="sm" c="dimmed">
        {to ? (
          <Anchor component={Link} to={to} inherit>
            {label}
          </Anchor>
        ) : (
          label
        )}
      </Text>
      <Text fz={32} fw={800} lh={1.2} c={alert ? 'var(--mantine-color-error)' : undefined}>
        {value}
      </Text>
      {detail ? (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      ) : null}
    </Card>
  );
}

function TopList({ id, title, items, empty }: { id: string; title: string; items: Ranked[]; empty: string }) {
  const { t } = useT('admin');
  const { locale, name } = useLocale();
  const number = numberFormat(locale);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.name')}</Table.Th>
              <Table.Th ta="end">{t('dashboard.live-ads')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.slug}>
                <Table.Td>{name(item)}</Table.Td>
                <Table.Td ta="end">{number.format(item.count)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  useAreaCatalogues('contact');
  const { locale, to } = useLocale();
  const { dashboard: d, now } = loaderData;
  // The admin layout's staff member: the figures link to the screens they may open.
  const staff = (useMatches().find((m) => m.id.endsWith('layout.admin'))?.loaderData as { staff?: StaffUser })?.staff;
  const seesAds = can(staff, 'view-ads');
  const seesPackages = can(staff, 'view-packages');
  const seesJobs = can(staff, 'view-dashboard');
  const number = numberFormat(locale);
  const { dateTime } = dates(locale);
  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="sm">
        <Title order={1}>{t('common:admin.nav.dashboard')}</Title>
        {seesAds ? (
          <Button component={Link} to={to('/admin/posts')} variant="default" radius="xl">
            {t('posts.title')}
          </Button>
        ) : null}
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={{ base: 'xs', sm: 'md' }}>
        <Stat
          label={t('dashboard.pending')}
          value={number.format(d.pending.count)}
          to={seesAds ? to('/admin/posts') : null}
          detail={
            d.pending.oldestSince ? (
              <>
                {t('dashboard.oldest')} <RelativeTime iso={d.pending.oldestSince} now={now} />
              </>
            ) : (
              t('dashboard.queue-empty')
            )
          }
        />
        <Stat
          label={t('dashboard.open-reports')}
          value={number.format(d.reports.open)}
          to={seesAds ? to('/admin/reports') : null}
        />
        <Stat
          label={t('dashboard.failed-jobs')}
          value={number.format(d.jobs.failed)}
          alert={d.jobs.failed > 0}
          to={seesJobs ? to('/admin/jobs?status=dead') : null}
          detail={t('dashboard.failed-jobs-hint')}
        />
        <Stat
          label={t('dashboard.active-packages')}
          value={number.format(d.packages.active)}
          to={seesPackages ? to('/admin/packages/subscriptions?state=current') : null}
          detail={t('dashboard.package-members', { count: d.packages.members })}
        />
        <Stat
          label={t('dashboard.ads-month')}
          value={number.format(d.ads.last30Days)}
          detail={t('dashboard.members-week', { count: d.members.last7Days })}
        />
        <Stat label={t('dashboard.members-total')} value={number.format(d.members.total)} />
        <Stat label={t('dashboard.contact-unread')} value={number.format(d.contact.unread)} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <DayChart id="ads-chart" title={t('dashboard.ads-per-day')} days={d.ads.perDay} series="ads" />
        <DayChart id="members-chart" title={t('dashboard.members-per-day')} days={d.members.perDay} series="members" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TopList
          id="top-categories"
          title={t('dashboard.top-categories')}
          items={d.top.categories}
          empty={t('dashboard.no-live-ads')}
        />
        <TopList
          id="top-cities"
          title={t('dashboard.top-cities')}
          items={d.top.cities}
          empty={t('dashboard.no-live-ads')}
        />
      </SimpleGrid>

      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="latest-contact">
        <Title order={2} size="h4" id="latest-contact" mb="md">
          {t('dashboard.latest-contact')}
        </Title>
        {d.contact.latest.length === 0 ? (
          <Text c="dimmed">{t('dashboard.no-contact')}</Text>
        ) : (
          // A scrollable region must be reachable by keyboard.
          <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-labelledby="latest-contact">
            <Table striped miw={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('contact:labels.name')}</Table.Th>
                  <Table.Th>{t('contact:labels.subject')}</Table.Th>
                  <Table.Th>{t('dashboard.received')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.contact.latest.map((m) => (
                  <Table.Tr key={m.id} fw={m.status === 'new' ? 700 : undefined}>
                    <Table.Td dir="auto">{m.name}</Table.Td>
                    <Table.Td>{t(`contact:subjects.${m.subject}`, { defaultValue: m.subject })}</Table.Td>
                    <Table.Td>{dateTime(m.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
        )}
        <Text size="xs" c="dimmed" mt="sm">
          {t('dashboard.contact-by-mail')}
        </Text>
      </Card>
    </Stack>
  );
}
