import { Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { useRevisionWords } from '~/components/admin/revision-parts.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { REVISIONS_SPEC, subjectAdminPath } from '~/lib/admin-insight.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { decodeCursor } from '../../../server/domain/admin/keyset.ts';
import { listRevisions, resolveActor } from '../../../server/domain/admin/revisions.ts';
import type { Route } from './+types/revisions';

// `/admin/revisions` (docs/product/back-office.md, "Revisions"): the audit log, newest first, filtered
// by actor (email or id), subject type, subject, action and days; keyset pages.

export const middleware = guards('acl:view-revisions');

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-revisions');
  const t = tFor(request);
  const query = parseListQuery(new URL(request.url).searchParams, REVISIONS_SPEC);
  const database = db(context);
  const f = query.filters;
  const page = await listRevisions(
    database,
    { actor: f.actor, type: f.type, subject: f.subject, action: f.action, from: f.from, to: f.to },
    { direction: query.dir, cursor: decodeCursor(query.after) },
  );
  const actorUnknown = f.actor ? (await resolveActor(database, f.actor)) === null : false;
  return {
    meta: { title: t('admin:revisions.title'), noindex: true },
    query,
    next: page.next,
    actorUnknown,
    subjectWithoutType: Boolean(f.subject && !f.type),
    now: new Date().toISOString(),
    rows: page.rows.map((r) => ({ ...r, subjectPath: subjectAdminPath(r.subject_type, r.subject_id, user) })),
  };
}

export const meta: Route.MetaFunction = routeMeta;

type Row = Route.ComponentProps['loaderData']['rows'][number];

export default function Revisions({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const words = useRevisionWords();
  const { rows, query, next, now } = loaderData;
  const columns: AdminColumn<Row>[] = [
    {
      key: 'change',
      label: t('revisions.col.change'),
      primary: true,
      render: (r) => (
        <Anchor component={Link} to={to(`/admin/revisions/${r.id}`)} fw={600}>
          {t('revisions.change', { action: words.action(r.action), type: words.type(r.subject_type) })}
        </Anchor>
      ),
    },
    {
      key: 'subject',
      label: t('revisions.col.subject'),
      render: (r) =>
        r.subjectPath ? (
          <Anchor component={Link} to={to(r.subjectPath)}>
            {t('revisions.subject', { type: words.type(r.subject_type), id: r.subject_id })}
          </Anchor>
        ) : (
          t('revisions.subject', { type: words.type(r.subject_type), id: r.subject_id })
        ),
    },
    {
      key: 'actor',
      label: t('revisions.col.actor'),
      render: (r) =>
        r.actor ? (
          <Box>
            <Text size="sm">
              <bdi>{r.actor.name}</bdi>
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              <bdi dir="ltr">{r.actor.email}</bdi>
            </Text>
          </Box>
        ) : (
          <Text size="sm" c="dimmed">
            {t('revisions.system')}
          </Text>
        ),
    },
    {
      key: 'fields',
      label: t('revisions.col.fields'),
      render: (r) =>
        r.fields.length ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {r.fields.slice(0, 4).join(', ')}
            {r.fields.length > 4 ? ` ${t('revisions.more-fields', { count: r.fields.length - 4 })}` : ''}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('revisions.no-fields')}
          </Text>
        ),
    },
    {
      key: 'created',
      label: t('revisions.col.when'),
      sort: 'created',
      render: (r) => <RelativeTime iso={r.created_at} now={now} />,
    },
  ];
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('revisions.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('revisions.intro')}
        </Text>
      </Box>
      {loaderData.actorUnknown ? (
        <Text role="status" c="var(--mantine-color-error)">
          {t('revisions.actor-unknown')}
        </Text>
      ) : null}
      {loaderData.subjectWithoutType ? (
        <Text role="status" c="var(--mantine-color-error)">
          {t('revisions.subject-needs-type')}
        </Text>
      ) : null}
      <AdminList
        path={to('/admin/revisions')}
        spec={REVISIONS_SPEC}
        query={query}
        rows={rows}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => words.action(r.action)}
        columns={columns}
        next={next}
        caption={t('revisions.title')}
        filters={[
          { name: 'actor', label: t('revisions.filter.actor'), type: 'text', hint: t('revisions.filter.actor-hint') },
          { name: 'type', label: t('revisions.filter.type'), type: 'text', hint: t('revisions.filter.type-hint') },
          {
            name: 'subject',
            label: t('revisions.filter.subject'),
            type: 'text',
            hint: t('revisions.filter.subject-hint'),
          },
          {
            name: 'action',
            label: t('revisions.filter.action'),
            type: 'text',
            hint: t('revisions.filter.action-hint'),
          },
          { name: 'from', label: t('revisions.filter.from'), type: 'date' },
          { name: 'to', label: t('revisions.filter.to'), type: 'date' },
        ]}
        empty={{ title: t('revisions.empty-title'), description: t('revisions.empty') }}
      />
    </Stack>
  );
}
