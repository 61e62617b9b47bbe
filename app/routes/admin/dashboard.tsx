import { Box, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useMatches } from 'react-router';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { can, type StaffUser } from '../../../server/domain/access.ts';
import { loadDashboard } from '../../../server/domain/dashboard.ts';
import type { Route } from './+types/dashboard';

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const dashboard = await loadDashboard(services(context).database);
  return { dashboard, meta: { title: t('common:admin.nav.dashboard'), noindex: true } };
}

export const meta: Route.MetaFunction = routeMeta;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={32} fw={800} lh={1.2}>
        {value}
      </Text>
    </Card>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  useAreaCatalogues('admin', 'contact');
  const { locale, to } = useLocale();
  const { members, contact } = loaderData.dashboard;
  // The admin layout's staff member: the moderation queue is linked for those who may open it.
  const staff = (useMatches().find((m) => m.id.endsWith('layout.admin'))?.loaderData as { staff?: StaffUser })?.staff;
  const number = numberFormat(locale);
  const { day, dateTime } = dates(locale);
  const max = Math.max(1, ...members.perDay.map((d) => d.count));
  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="sm">
        <Title order={1}>{t('admin.nav.dashboard')}</Title>
        {can(staff, 'view-ads') ? (
          <Button component={Link} to={to('/admin/posts')} variant="default" radius="xl">
            {t('admin:posts.title')}
          </Button>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Stat label={t('admin.dashboard.members-total')} value={number.format(members.total)} />
        <Stat label={t('admin.dashboard.members-week')} value={number.format(members.last7Days)} />
        <Stat label={t('admin.dashboard.contact-unread')} value={number.format(contact.unread)} />
      </SimpleGrid>

      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="members-chart">
        <Title order={2} size="h4" id="members-chart" mb="md">
          {t('admin.dashboard.members-per-day')}
        </Title>
        <Group gap={4} align="flex-end" h={140} wrap="nowrap" role="list">
          {members.perDay.map((d) => (
            <Box
              key={d.day}
              role="listitem"
              style={{ flex: 1, textAlign: 'center' }}
              title={`${day(d.day)}: ${number.format(d.count)}`}
            >
              <Text size="xs" c="dimmed">
                {number.format(d.count)}
              </Text>
              <Box
                bg="var(--mantine-color-brand-6)"
                style={{ blockSize: `${Math.round((d.count / max) * 100)}px`, minBlockSize: 2, borderRadius: 4 }}
                aria-hidden
              />
              <Text size="10px" c="dimmed" visibleFrom="sm">
                {day(d.day)}
              </Text>
            </Box>
          ))}
        </Group>
      </Card>

      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="latest-contact">
        <Title order={2} size="h4" id="latest-contact" mb="md">
          {t('admin.dashboard.latest-contact')}
        </Title>
        {contact.latest.length === 0 ? (
          <Text c="dimmed">{t('admin.dashboard.no-contact')}</Text>
        ) : (
          // A scrollable region must be reachable by keyboard.
          <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-labelledby="latest-contact">
            <Table striped miw={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('contact:labels.name')}</Table.Th>
                  <Table.Th>{t('contact:labels.subject')}</Table.Th>
                  <Table.Th>{t('admin.dashboard.received')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {contact.latest.map((m) => (
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
          {t('admin.dashboard.contact-by-mail')}
        </Text>
      </Card>
    </Stack>
  );
}
