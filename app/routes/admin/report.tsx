import { getFormProps, getTextareaProps } from '@conform-to/react';
import { Anchor, Box, Button, Card, Group, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { useModerationError } from '~/components/admin/moderation-parts.tsx';
import { ReportStatusBadge, useReasonWords, useReportSubject } from '~/components/admin/report-parts.tsx';
import { FormError } from '~/components/form-error.tsx';
import { useValidatedForm } from '~/components/form-parts.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { subjectAdminPath } from '~/lib/admin-insight.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { type FormReply, formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, notFound, pathId, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { handleReportSchema, isReportIntent, RESOLUTION_NOTE_MAX } from '~/lib/validation/admin-reports.ts';
import { can } from '../../../server/domain/access.ts';
import { findReport, handleReport } from '../../../server/domain/admin/reports.ts';
import { Conflict } from '../../../server/domain/errors.ts';
import type { Route } from './+types/report';

// `/admin/reports/{id}` (docs/product/back-office.md, "Reports"): one report — what and who was
// reported, by whom, why, in their words — and, while it is open, its handling: resolve (acted on)
// or dismiss (nothing to do) with a note; the reporter is told. `view-ads` to see, `update-ads` to
// handle.

export const middleware = guards('acl:view-ads');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-ads');
  const report = await findReport(db(context), pathId(request, params.id));
  if (!report) throw notFound(request);
  const t = tFor(request);
  return {
    meta: {
      title: `${t('admin:reports.detail-title', { id: report.id })} · ${t('admin:reports.title')}`,
      noindex: true,
    },
    report,
    canHandle: can(user, 'update-ads'),
    adPath: report.ad ? subjectAdminPath('ad', String(report.ad.id), user) : null,
    memberPath: report.member ? subjectAdminPath('user', report.member.id, user) : null,
    ownerPath: report.ad?.owner_id ? subjectAdminPath('user', report.ad.owner_id, user) : null,
    reporterPath: report.reporter ? subjectAdminPath('user', report.reporter.id, user) : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathId(request, params.id);
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isReportIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const { actor } = await requireStaff(request, context, 'update-ads');
  return formAction(form, handleReportSchema, async ({ note }) => {
    try {
      await handleReport(db(context), actor, id, intent === 'resolve' ? 'resolved' : 'dismissed', note);
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      return data<FormReply>(
        { result: { status: 'error', initialValue: { note }, error: {} }, formError: error.message },
        { status: 409 },
      );
    }
    return redirectWithFlash(localizePath('/admin/reports', localeOf(request)), 'admin-saved');
  });
}

export const meta: Route.MetaFunction = routeMeta;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Box fw={500}>{children}</Box>
    </Box>
  );
}

function HandleForm({ reply }: { reply: FormReply | undefined }) {
  const { t } = useT('admin');
  const error = useModerationError();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm('report-form', handleReportSchema, reply?.result);
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="handle-title">
      <Title order={2} size="h4" id="handle-title" mb={4}>
        {t('reports.handle.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('reports.handle.hint')}
      </Text>
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <FormError code={reply?.formError} />
          <Textarea
            {...getTextareaProps(fields.note)}
            key={fields.note.key}
            label={t('reports.handle.note')}
            description={t('reports.handle.note-hint')}
            error={error(fields.note)}
            maxLength={RESOLUTION_NOTE_MAX}
            autosize
            minRows={3}
            dir="auto"
            withAsterisk
          />
          <Group gap="sm">
            <Button type="submit" name="intent" value="resolve" radius="xl" loading={busy('resolve')}>
              {t('reports.handle.resolve')}
            </Button>
            <Button type="submit" name="intent" value="dismiss" radius="xl" variant="default" loading={busy('dismiss')}>
              {t('reports.handle.dismiss')}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}

export default function ReportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const dates = useDates();
  const subject = useReportSubject();
  const reason = useReasonWords();
  const { report: r, canHandle, adPath, memberPath, ownerPath, reporterPath } = loaderData;
  const link = (path: string | null, text: string) =>
    path ? (
      <Anchor component={Link} to={to(path)}>
        <bdi>{text}</bdi>
      </Anchor>
    ) : (
      <Text inherit>
        <bdi>{text}</bdi>
      </Text>
    );
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/reports')} py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('reports.back')}
        </Group>
      </Anchor>
      <Group gap="sm" align="center">
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {subject(r)}
        </Title>
        <ReportStatusBadge status={r.status} />
      </Group>
      <Card withBorder radius="lg" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {r.ad ? (
            <Fact label={t('reports.kinds.ad')}>{link(adPath, r.ad.title)}</Fact>
          ) : r.member ? (
            <Fact label={t('reports.kinds.member')}>{link(memberPath, r.member.name)}</Fact>
          ) : null}
          {r.ad?.owner_id && ownerPath ? (
            <Fact label={t('reports.owner')}>{link(ownerPath, t('reports.owner-page'))}</Fact>
          ) : null}
          <Fact label={t('reports.col.reason')}>{reason(r.reason)}</Fact>
          <Fact label={t('reports.col.created')}>{dates.dateTime(r.created_at)}</Fact>
          <Fact label={t('reports.col.reporter')}>
            {r.reporter ? link(reporterPath, r.reporter.name) : t('reports.reporter-gone')}
          </Fact>
          {r.chat_id !== null ? (
            <Fact label={t('reports.chat')}>{t('reports.chat-number', { id: r.chat_id })}</Fact>
          ) : null}
        </SimpleGrid>
        <Box mt="md">
          <Text size="sm" c="dimmed">
            {t('reports.col.note')}
          </Text>
          <Text dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {r.note || '—'}
          </Text>
        </Box>
        {r.others > 0 ? (
          <Text size="sm" mt="md" fw={600}>
            {t('reports.others', { count: r.others })}
          </Text>
        ) : null}
      </Card>
      {r.status !== 'open' ? <FormError code={(actionData as FormReply | undefined)?.formError} /> : null}
      {r.status === 'open' ? (
        canHandle ? (
          <HandleForm reply={actionData as FormReply | undefined} />
        ) : (
          <Text c="dimmed">{t('reports.handle.no-right')}</Text>
        )
      ) : (
        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="handled-title">
          <Title order={2} size="h4" id="handled-title" mb="sm">
            {t(`reports.handled.${r.status}`)}
          </Title>
          <Stack gap="xs">
            <Text size="sm">
              {t('reports.handled.by', {
                name: r.handled_by?.name ?? t('reports.reporter-gone'),
                date: r.handled_at ? dates.dateTime(r.handled_at) : '—',
              })}
            </Text>
            <Text dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {r.resolution_note || '—'}
            </Text>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
