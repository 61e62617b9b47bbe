import { Badge, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Form, Link, useNavigation } from 'react-router';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { FormError } from '~/components/form-parts.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { type ListSpec, listSearch, parseListQuery } from '~/lib/admin-list.ts';
import { JOB_STATUSES } from '~/lib/admin-lists.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { type JobRow, type JobStatus, jobCounts, listJobs, retryJob } from '../../../server/domain/admin/jobs.ts';
import { Invalid } from '../../../server/domain/errors.ts';
import type { Route } from './+types/jobs';

// The job queue (docs/product/back-office.md, "Jobs"): jobs by status — waiting, running, dead,
// done — newest first, with their attempts, when they run and their last error; a dead job can be
// tried again. Any staff member who sees the dashboard (view-dashboard).

export const middleware = guards('acl:view-dashboard');

const SPEC: ListSpec<'id'> = { sorts: ['id'], filters: { status: JOB_STATUSES } };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'view-dashboard');
  const query = parseListQuery(new URL(request.url).searchParams, SPEC);
  const status = (query.filters.status ?? null) as JobStatus | null;
  const [page, counts] = await Promise.all([
    listJobs(db(context), { status, q: query.q, after: query.after }),
    jobCounts(db(context)),
  ]);
  return {
    meta: { title: tFor(request)('admin:jobs.title'), noindex: true },
    query,
    status,
    page,
    counts,
    now: new Date().toISOString(),
  };
}

/** `intent=retry` with `id`: the dead job goes back to the queue. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') !== 'retry') throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const { actor } = await requireStaff(request, context, 'view-dashboard');
  const id = parseId(form.get('id'));
  if (id === null) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  try {
    await retryJob(db(context), actor, id);
  } catch (error) {
    // Retried meanwhile (or not dead): said on the page, nothing changed.
    if (error instanceof Invalid) return Response.json({ formError: error.errors.form?.[0] }, { status: 409 });
    throw error;
  }
  const query = parseListQuery(new URL(request.url).searchParams, SPEC);
  return redirectWithFlash(localizePath('/admin/jobs', localeOf(request)) + listSearch(SPEC, query), 'admin-saved');
}

export const meta: Route.MetaFunction = routeMeta;

const COLORS: Record<JobStatus, string> = { pending: 'blue', running: 'yellow', dead: 'red', done: 'green' };

function RetryButton({ job }: { job: JobRow }) {
  const { t } = useT('admin');
  const navigation = useNavigation();
  return (
    <Form method="post">
      <input type="hidden" name="id" value={job.id} />
      <Button
        type="submit"
        name="intent"
        value="retry"
        size="sm"
        mih={44}
        loading={navigation.state === 'submitting' && navigation.formData?.get('id') === String(job.id)}
        aria-label={t('jobs.retry-named', { name: job.name, id: job.id })}
      >
        {t('jobs.retry')}
      </Button>
    </Form>
  );
}

export default function Jobs({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  useAreaCatalogues('admin');
  const { to, locale } = useLocale();
  const number = numberFormat(locale);
  const { query, status, page, counts, now } = loaderData;
  const path = to('/admin/jobs');
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('jobs.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('jobs.intro')}
        </Text>
      </Box>
      <Group component="nav" aria-label={t('jobs.tabs')} gap="xs">
        {(['dead', 'pending', 'running', 'done'] as const).map((s) => (
          <Button
            key={s}
            component={Link}
            to={path + listSearch(SPEC, query, { filters: { status: s } })}
            variant={s === status ? 'filled' : 'light'}
            radius="xl"
            mih={44}
            aria-current={s === status ? 'page' : undefined}
          >
            {t(`jobs.status.${s}`)}
            {s !== 'done' ? (
              <Text span ms={6} fw={700} inherit>
                {number.format(counts[s])}
              </Text>
            ) : null}
          </Button>
        ))}
      </Group>
      <FormError code={(actionData as { formError?: string } | undefined)?.formError} />
      <AdminList<JobRow>
        path={path}
        spec={SPEC}
        query={query}
        filters={[
          {
            name: 'status',
            label: t('jobs.col.status'),
            any: t('jobs.any-status'),
            options: JOB_STATUSES.map((s) => ({ value: s, label: t(`jobs.status.${s}`) })),
          },
        ]}
        rows={page.rows}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => `${r.name} #${r.id}`}
        next={page.next}
        caption={t('jobs.title')}
        search={t('jobs.search')}
        empty={{ title: t('jobs.empty-title'), description: t('jobs.empty') }}
        columns={[
          {
            key: 'name',
            label: t('jobs.col.job'),
            primary: true,
            render: (r) => (
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600} dir="ltr" span>
                    {r.name}
                  </Text>
                  <Badge color={COLORS[r.status]} variant="light" tt="none">
                    {t(`jobs.status.${r.status}`)}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed" dir="ltr">
                  #{r.id}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'attempts',
            label: t('jobs.col.attempts'),
            render: (r) => t('jobs.attempts', { done: number.format(r.attempts), max: number.format(r.max_attempts) }),
          },
          {
            key: 'run_at',
            label: t('jobs.col.run-at'),
            render: (r) => (
              <RelativeTime iso={r.status === 'dead' && r.finished_at ? r.finished_at : r.run_at} now={now} />
            ),
          },
          {
            key: 'error',
            label: t('jobs.col.error'),
            render: (r) =>
              r.last_error ? (
                <details>
                  <Text
                    component="summary"
                    size="sm"
                    py={12}
                    style={{ cursor: 'pointer', overflowWrap: 'anywhere' }}
                    dir="ltr"
                  >
                    {r.last_error.slice(0, 80)}
                  </Text>
                  <Text
                    component="pre"
                    size="xs"
                    ff="monospace"
                    dir="ltr"
                    m={0}
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  >
                    {r.last_error}
                    {'\n\n'}
                    {r.payload}
                  </Text>
                </details>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('jobs.no-error')}
                </Text>
              ),
          },
          {
            key: 'actions',
            label: t('jobs.col.actions'),
            render: (r) => (r.status === 'dead' ? <RetryButton job={r} /> : null),
          },
        ]}
      />
    </Stack>
  );
}
