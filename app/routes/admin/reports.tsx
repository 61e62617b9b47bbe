import { Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { ReportStatusBadge, useReasonWords, useReportSubject } from '~/components/admin/report-parts.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { ALL_REPORT_REASONS, REPORTS_SPEC } from '~/lib/admin-insight.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { decodeCursor } from '../../../server/domain/admin/keyset.ts';
import { listReports, type ReportKind, type ReportStatus } from '../../../server/domain/admin/reports.ts';
import type { Route } from './+types/reports';

// `/admin/reports` (docs/product/back-office.md, "Reports"): what members reported — ads and members
// (from a chat) — the oldest open report first; each opens on its page, where it is resolved or
// dismissed with a note. `view-ads` to see, `update-ads` to handle.

export const middleware = guards('acl:view-ads');

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'view-ads');
  const t = tFor(request);
  const query = parseListQuery(new URL(request.url).searchParams, REPORTS_SPEC);
  const f = query.filters;
  const page = await listReports(
    db(context),
    {
      status: (f.status as ReportStatus | undefined) ?? 'open',
      kind: f.kind as ReportKind | undefined,
      reason: f.reason,
      member: f.member,
    },
    { direction: query.dir, cursor: decodeCursor(query.after) },
  );
  return {
    meta: { title: t('admin:reports.title'), noindex: true },
    query,
    rows: page.rows,
    next: page.next,
    now: new Date().toISOString(),
  };
}

export const meta: Route.MetaFunction = routeMeta;

type Row = Route.ComponentProps['loaderData']['rows'][number];

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const subject = useReportSubject();
  const reason = useReasonWords();
  const { rows, query, next, now } = loaderData;
  const columns: AdminColumn<Row>[] = [
    {
      key: 'subject',
      label: t('reports.col.subject'),
      primary: true,
      render: (r) => (
        <Anchor component={Link} to={to(`/admin/reports/${r.id}`)} fw={600} style={{ overflowWrap: 'anywhere' }}>
          {subject(r)}
        </Anchor>
      ),
    },
    { key: 'reason', label: t('reports.col.reason'), render: (r) => reason(r.reason) },
    {
      key: 'note',
      label: t('reports.col.note'),
      render: (r) =>
        r.note ? (
          <Text size="sm" dir="auto" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {r.note}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'reporter',
      label: t('reports.col.reporter'),
      render: (r) =>
        r.reporter ? (
          <Text size="sm">
            <bdi>{r.reporter.name}</bdi>
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('reports.reporter-gone')}
          </Text>
        ),
    },
    {
      key: 'created',
      label: t('reports.col.created'),
      sort: 'created',
      render: (r) => <RelativeTime iso={r.created_at} now={now} />,
    },
    { key: 'status', label: t('reports.col.status'), render: (r) => <ReportStatusBadge status={r.status} /> },
  ];
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('reports.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('reports.intro')}
        </Text>
      </Box>
      <AdminList
        path={to('/admin/reports')}
        spec={REPORTS_SPEC}
        query={query}
        rows={rows}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => subject(r)}
        columns={columns}
        next={next}
        caption={t('reports.title')}
        filters={[
          {
            name: 'status',
            label: t('reports.filter.status'),
            any: t('reports.statuses.open'),
            options: [
              { value: 'resolved', label: t('reports.statuses.resolved') },
              { value: 'dismissed', label: t('reports.statuses.dismissed') },
            ],
          },
          {
            name: 'kind',
            label: t('reports.filter.kind'),
            any: t('reports.filter.any-kind'),
            options: [
              { value: 'ad', label: t('reports.kinds.ad') },
              { value: 'member', label: t('reports.kinds.member') },
            ],
          },
          {
            name: 'reason',
            label: t('reports.filter.reason'),
            any: t('reports.filter.any-reason'),
            options: ALL_REPORT_REASONS.map((r) => ({ value: r, label: reason(r) })),
          },
          ...(query.filters.member
            ? [{ name: 'member', label: t('reports.filter.member'), type: 'text' as const }]
            : []),
        ]}
        empty={{ title: t('reports.empty-title'), description: t('reports.empty') }}
      />
    </Stack>
  );
}
