import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Grid,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { AdminSection, IntentSubmit } from '~/components/admin/admin-section.tsx';
import { DoneAlert, RejectFields, StatusBadge, useModerationError } from '~/components/admin/moderation-parts.tsx';
import { MetaLine, usePrice, useReasonLabel } from '~/components/ads/ad-parts.tsx';
import { FormError, useValidatedForm } from '~/components/form-parts.tsx';
import { RelativeTime, useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { FEATURABLE, parseDone, parseQueueQuery, queueSearch } from '~/lib/moderation.ts';
import { db, pathId, tFor } from '~/lib/route.server.ts';
import { requirePermission } from '~/lib/session.server.ts';
import { actorOf } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  deleteSchema,
  endOfLibyanDay,
  featureSchema,
  libyaToday,
  rejectionReasonValue,
  rejectSchema,
} from '~/lib/validation/moderation.ts';
import { approveAdChange, rejectAdChange } from '../../../server/domain/ads/changes.ts';
import { moveAd } from '../../../server/domain/ads/status.ts';
import { featureAd, getModerationAd, type ModerationAd } from '../../../server/domain/moderation.ts';
import type { Permission } from '../../../server/domain/permissions.ts';
import type { Route } from './+types/post';
import { type ModerationRights, queueTarget, reviewTarget, rightsOf } from './moderation.server.ts';

// One ad under review (docs/product-notes.md, "Moderation"): everything needed to decide (description, details, photos,
// owner, status history, open reports) and the decisions the staff member's permissions allow.
// Each decision is its own form with a hidden `intent`, checked on the server against its own
// permission; approve, reject and delete go back to the queue, featuring stays here.

export const middleware = guards('acl:view-ads');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requirePermission(request, context, 'view-ads');
  const t = tFor(request);
  const ad = await getModerationAd(db(context), pathId(request, params.id));
  const url = new URL(request.url);
  return {
    meta: { title: `${ad.title} · ${t('admin:posts.title')}`, noindex: true },
    ad,
    rights: rightsOf(user),
    now: new Date().toISOString(),
    today: libyaToday(),
    back: queueSearch(parseQueueQuery(url.searchParams)),
    done: parseDone(url.searchParams),
  };
}

const INTENTS = {
  approve: 'approve-ads',
  reject: 'approve-ads',
  'approve-change': 'approve-ads',
  'reject-change': 'approve-ads',
  feature: 'update-ads',
  unfeature: 'update-ads',
  delete: 'delete-ads',
} as const satisfies Record<string, Permission>;
type Intent = keyof typeof INTENTS;
const isIntent = (v: unknown): v is Intent => typeof v === 'string' && Object.hasOwn(INTENTS, v);

/** Conform's reply, tagged with the form that was sent (its `intent`). */
type IntentReply = SubmissionResult<string[]> & { form: Intent };
export type ReviewActionData = { result: IntentReply; formError?: string };

const nothing = z.object({});

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathId(request, params.id);
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const user = await requirePermission(request, context, INTENTS[intent]);
  const database = db(context);
  const actor = actorOf(user, context);

  const handle = <Schema extends z.ZodType>(schema: Schema, work: (value: z.output<Schema>) => Promise<Response>) =>
    formAction(form, schema, work, { extra: { form: intent } });

  switch (intent) {
    case 'approve':
      return handle(nothing, async () => {
        await moveAd(database, actor, id, 'approve');
        return redirect(queueTarget(request, { done: 'approved', count: 1, skipped: 0 }));
      });
    case 'reject':
      return handle(rejectSchema, async (value) => {
        await moveAd(database, actor, id, 'reject', { reason: rejectionReasonValue(value) });
        return redirect(queueTarget(request, { done: 'rejected', count: 1, skipped: 0 }));
      });
    case 'approve-change':
      return handle(nothing, async () => {
        await approveAdChange(database, actor, id);
        return redirect(queueTarget(request, { done: 'change-approved', count: 1, skipped: 0 }));
      });
    case 'reject-change':
      return handle(rejectSchema, async (value) => {
        await rejectAdChange(database, actor, id, rejectionReasonValue(value));
        return redirect(queueTarget(request, { done: 'change-rejected', count: 1, skipped: 0 }));
      });
    case 'feature':
      return handle(featureSchema(), async ({ until }) => {
        await featureAd(database, actor, id, endOfLibyanDay(until));
        return redirect(reviewTarget(request, id, { done: 'featured', count: 0, skipped: 0 }));
      });
    case 'unfeature':
      return handle(nothing, async () => {
        await featureAd(database, actor, id, null);
        return redirect(reviewTarget(request, id, { done: 'unfeatured', count: 0, skipped: 0 }));
      });
    case 'delete':
      return handle(deleteSchema, async () => {
        await moveAd(database, actor, id, 'delete');
        return redirect(queueTarget(request, { done: 'deleted', count: 1, skipped: 0 }));
      });
  }
}

export const meta: Route.MetaFunction = routeMeta;

/** Label / value rows. */
function Facts({ rows, label }: { rows: [string, ReactNode][]; label: string }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder={false} aria-label={label}>
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th w="40%" fw={500} c="dimmed">
              {name}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Summary({ ad, now }: { ad: ModerationAd; now: string }) {
  const { t } = useT('admin');
  const { name, locale } = useLocale();
  const price = usePrice();
  const reason = useReasonLabel();
  const number = numberFormat(locale);
  const when = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : null);
  const contact = [
    t('post.contact-chat'),
    ad.contact_phone ? t('post.contact-phone') : null,
    ad.contact_whatsapp ? t('post.contact-whatsapp') : null,
  ].filter(Boolean);
  const rows: [string, ReactNode][] = [
    [t('post.price'), price(ad)],
    [t('post.category'), [ad.taxonomy, ...ad.categories].map(name).join(' › ')],
    [t('post.place'), [name(ad.city), ad.area ? name(ad.area) : null].filter(Boolean).join('، ')],
    [t('post.created'), when(ad.created_at)],
    [t('post.updated'), when(ad.updated_at)],
  ];
  if (ad.status === 'pending' && ad.queued_at) rows.push([t('post.queued'), when(ad.queued_at)]);
  if (ad.published_at) rows.push([t('post.published'), when(ad.published_at)]);
  if (ad.expires_at && ad.status === 'published') rows.push([t('post.expires'), when(ad.expires_at)]);
  rows.push(
    [t('post.views'), number.format(ad.views)],
    [t('post.contact'), contact.join(locale === 'ar' ? '، ' : ', ')],
  );
  if (ad.rejection_reason) {
    rows.push([
      t('post.rejection-reason'),
      <Text key="reason" span dir="auto" inherit>
        {reason(ad.rejection_reason)}
      </Text>,
    ]);
  }
  return (
    <AdminSection id="summary" title={t('post.summary')}>
      <Facts rows={rows} label={t('post.summary')} />
    </AdminSection>
  );
}

function Details({ ad }: { ad: ModerationAd }) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const dates = useDates();
  const rows = ad.attributes.map((a): [string, ReactNode] => {
    const unit = locale === 'ar' ? a.unit_ar : a.unit_en;
    const number = numberFormat(locale, a.type === 'year' ? { useGrouping: false } : {});
    const words = a.values.map((v) => {
      if ('option' in v) return locale === 'ar' ? v.option.ar : v.option.en;
      if ('number' in v) return unit ? `${number.format(v.number)} ${unit}` : number.format(v.number);
      if ('bool' in v) return v.bool ? t('post.yes') : t('post.no');
      return a.type === 'date' ? dates.date(`${v.text}T12:00:00Z`) : v.text;
    });
    return [
      locale === 'ar' ? a.name_ar : a.name_en,
      <Text key={a.key} span dir="auto" inherit>
        {words.join('، ')}
      </Text>,
    ];
  });
  return (
    <AdminSection id="details" title={t('post.details')}>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('post.no-details')}</Text>
      ) : (
        <Facts rows={rows} label={t('post.details')} />
      )}
    </AdminSection>
  );
}

function Photos({ ad }: { ad: ModerationAd }) {
  const { t } = useT('admin');
  return (
    <AdminSection id="photos" title={t('post.photos')}>
      {ad.photos.length === 0 ? (
        <Text c="dimmed">{t('post.no-photos')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          {ad.photos.map((p, i) => (
            <Anchor key={p.id} href={p.urls.large} target="_blank" rel="noopener" display="block">
              <Image
                src={p.urls.medium}
                alt={t('post.photo-alt', { n: i + 1, total: ad.photos.length, title: ad.title })}
                radius="md"
                fit="cover"
                h={160}
                loading="lazy"
              />
            </Anchor>
          ))}
        </SimpleGrid>
      )}
    </AdminSection>
  );
}

function Owner({ ad }: { ad: ModerationAd }) {
  const { t } = useT('admin');
  const dates = useDates();
  const owner = ad.owner;
  return (
    <AdminSection id="owner" title={t('post.owner')}>
      {owner ? (
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={600} dir="auto">
              {owner.name}
            </Text>
            {owner.banned ? (
              <Badge color="red.9" c="white" variant="filled" tt="none">
                {t('post.banned')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {t('post.member-since', { date: dates.date(owner.member_since) })}
          </Text>
          <Text size="sm">{t('post.active-ads', { count: owner.active_ads })}</Text>
          {owner.email ? (
            <Text size="sm">
              {t('post.email')}:{' '}
              <Anchor href={`mailto:${owner.email}`} dir="ltr" underline="always">
                {owner.email}
              </Anchor>
            </Text>
          ) : null}
          {owner.phone ? (
            <Text size="sm">
              {t('post.phone')}:{' '}
              <Anchor href={`tel:${owner.phone}`} dir="ltr" underline="always">
                {owner.phone}
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text c="dimmed">{t('posts.deleted-owner')}</Text>
      )}
    </AdminSection>
  );
}

function History({ ad }: { ad: ModerationAd }) {
  const { t } = useT('admin');
  const dates = useDates();
  const reason = useReasonLabel();
  const status = (s: string) => t(`statuses.${s}`, { defaultValue: s });
  return (
    <AdminSection id="history" title={t('post.history')}>
      <Timeline active={ad.history.length - 1} bulletSize={14} lineWidth={2}>
        {ad.history.map((h) => (
          <Timeline.Item
            key={h.id}
            title={
              h.from
                ? t('post.history-move', { from: status(h.from), to: status(h.to) })
                : t('post.history-created', { to: status(h.to) })
            }
          >
            <Text size="xs" c="dimmed">
              <MetaLine
                items={[
                  { key: 'at', text: <time dateTime={h.at}>{dates.dateTime(h.at)}</time> },
                  { key: 'by', text: h.actor ? t('post.by', { name: h.actor }) : t('post.by-system') },
                ]}
              />
            </Text>
            {h.reason ? (
              <Text size="sm" dir="auto">
                {reason(h.reason)}
              </Text>
            ) : null}
          </Timeline.Item>
        ))}
      </Timeline>
    </AdminSection>
  );
}

function Reports({ ad }: { ad: ModerationAd }) {
  const { t } = useT('admin');
  const dates = useDates();
  return (
    <AdminSection id="reports" title={t('post.reports')}>
      {ad.reports.length === 0 ? (
        <Text c="dimmed">{t('post.no-reports')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {ad.reports.map((r) => (
            <Box component="li" key={r.id}>
              <Text fw={600}>{t(`report-reasons.${r.reason}`, { defaultValue: r.reason })}</Text>
              {r.note ? (
                <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                  {r.note}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed">
                <MetaLine
                  items={[
                    { key: 'by', text: t('post.reported-by', { name: r.reporter ?? t('posts.deleted-owner') }) },
                    { key: 'at', text: <time dateTime={r.at}>{dates.dateTime(r.at)}</time> },
                  ]}
                />
              </Text>
            </Box>
          ))}
        </Stack>
      )}
    </AdminSection>
  );
}

/**
 * The owner's edit of this live ad waiting for review: each reviewed field as it is live and as
 * proposed, side by side (stacked on phones), with the decisions on the change itself.
 */
function PendingChange({
  ad,
  rights,
  reply,
}: {
  ad: ModerationAd;
  rights: ModerationRights;
  reply: ReviewActionData | undefined;
}) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const price = usePrice();
  const dates = useDates();
  const result = reply?.result.form === 'reject-change' ? reply.result : undefined;
  const [rejectForm, rejectFields] = useValidatedForm('reject-change-form', rejectSchema, result);
  const change = ad.change;
  if (!change) return null;
  const rows: { label: string; before: ReactNode; after: ReactNode }[] = [];
  const text = (v: string, pre = false) => (
    <Text dir="auto" size="sm" style={{ whiteSpace: pre ? 'pre-wrap' : undefined, overflowWrap: 'anywhere' }}>
      {v || '—'}
    </Text>
  );
  if (change.title)
    rows.push({ label: t('post.change.title-field'), before: text(change.title[0]), after: text(change.title[1]) });
  if (change.description) {
    rows.push({
      label: t('post.description'),
      before: text(change.description[0], true),
      after: text(change.description[1], true),
    });
  }
  if (change.price) {
    rows.push({
      label: t('post.price'),
      before: <Text size="sm">{price(change.price[0])}</Text>,
      after: <Text size="sm">{price(change.price[1])}</Text>,
    });
  }
  for (const a of change.attributes) {
    rows.push({ label: locale === 'ar' ? a.name_ar : a.name_en, before: text(a.before), after: text(a.after) });
  }
  const thumbs = (list: { id: number; urls: { thumb: string }; added?: boolean }[]) =>
    list.length === 0 ? (
      <Text size="sm" c="dimmed">
        {t('post.no-photos')}
      </Text>
    ) : (
      <Group gap={6}>
        {list.map((p, i) => (
          <Box key={p.id} pos="relative">
            <Image
              src={p.urls.thumb}
              alt={t('post.change.photo-alt', { n: i + 1 })}
              w={72}
              h={54}
              radius="sm"
              fit="cover"
              style={p.added ? { outline: '3px solid var(--mantine-color-yellow-5)' } : undefined}
            />
            {p.added ? (
              <Badge size="xs" color="yellow.4" c="black" variant="filled" pos="absolute" top={2} left={2} tt="none">
                {t('post.change.new-photo')}
              </Badge>
            ) : null}
          </Box>
        ))}
      </Group>
    );
  if (change.photos) {
    rows.push({ label: t('post.photos'), before: thumbs(change.photos.before), after: thumbs(change.photos.after) });
  }
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="section"
      aria-labelledby="change-title"
      bd="2px solid var(--mantine-color-yellow-5)"
    >
      <Title order={2} size="h4" id="change-title">
        {t('post.change.heading')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('post.change.hint', { date: dates.dateTime(change.updated_at) })}
      </Text>
      <Stack gap="md" component="dl" m={0}>
        {rows.map((r) => (
          <Box key={r.label}>
            <Text component="dt" fw={600} mb={4}>
              {r.label}
            </Text>
            <SimpleGrid component="dd" m={0} cols={{ base: 1, sm: 2 }} spacing="sm">
              <Box p="xs" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 8 }}>
                <Text size="xs" c="dimmed" mb={2}>
                  {t('post.change.before')}
                </Text>
                {r.before}
              </Box>
              <Box p="xs" style={{ borderRadius: 8, border: '1px solid var(--mantine-color-yellow-5)' }}>
                <Text size="xs" c="dimmed" mb={2}>
                  {t('post.change.after')}
                </Text>
                {r.after}
              </Box>
            </SimpleGrid>
          </Box>
        ))}
      </Stack>
      {rights.approve ? (
        <Stack gap="md" mt="lg">
          <Form method="post">
            <Intent value="approve-change" />
            <IntentSubmit intent="approve-change">{t('post.change.approve')}</IntentSubmit>
          </Form>
          <Form method="post" {...getFormProps(rejectForm)} noValidate>
            <Intent value="reject-change" />
            <Stack gap="sm">
              <RejectFields reason={rejectFields.reason} text={rejectFields.reason_text} />
              <Group>
                <IntentSubmit intent="reject-change" color="red.9">
                  {t('post.change.reject')}
                </IntentSubmit>
              </Group>
            </Stack>
          </Form>
        </Stack>
      ) : null}
    </Card>
  );
}

const Intent = ({ value }: { value: Intent }) => <input type="hidden" name="intent" value={value} />;

function Part({ id, title, hint, children }: { id: string; title: string; hint: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {hint}
      </Text>
      {children}
    </Box>
  );
}

function Decision({
  ad,
  rights,
  today,
  now,
  reply,
}: {
  ad: ModerationAd;
  rights: ModerationRights;
  today: string;
  now: string;
  reply: ReviewActionData | undefined;
}) {
  const { t } = useT('admin');
  const error = useModerationError();
  const dates = useDates();
  const result = (intent: Intent) => (reply?.result.form === intent ? reply.result : undefined);
  const [rejectForm, rejectFields] = useValidatedForm('reject-form', rejectSchema, result('reject'));
  const [featureForm, featureFields] = useValidatedForm('feature-form', featureSchema(), result('feature'));
  const [deleteForm, deleteFields] = useValidatedForm('delete-form', deleteSchema, result('delete'));
  const canApprove = rights.approve && ad.status === 'pending';
  const canReject = rights.approve && (ad.status === 'pending' || ad.status === 'published');
  const canFeature = rights.update && FEATURABLE.includes(ad.status);
  const canDelete = rights.delete && ad.status !== 'deleted';
  const featured = ad.featured_until && ad.featured_until > now ? ad.featured_until : null;
  const parts: ReactNode[] = [];
  if (canApprove) {
    parts.push(
      <Part key="approve" id="approve-title" title={t('post.approve.title')} hint={t('post.approve.hint')}>
        <Form method="post" id="approve-form">
          <Intent value="approve" />
          <IntentSubmit intent="approve">{t('post.approve.submit')}</IntentSubmit>
        </Form>
      </Part>,
    );
  }
  if (canReject) {
    parts.push(
      <Part key="reject" id="reject-title" title={t('post.reject.title')} hint={t('post.reject.hint')}>
        <Form method="post" {...getFormProps(rejectForm)} noValidate>
          <Intent value="reject" />
          <Stack gap="sm">
            <RejectFields reason={rejectFields.reason} text={rejectFields.reason_text} />
            <Group>
              <IntentSubmit intent="reject" color="red.9">
                {t('post.reject.submit')}
              </IntentSubmit>
            </Group>
          </Stack>
        </Form>
      </Part>,
    );
  }
  if (rights.update && ad.status !== 'deleted') {
    parts.push(
      <Part key="feature" id="feature-title" title={t('post.feature.title')} hint={t('post.feature.hint')}>
        {featured ? (
          <Text size="sm" mb="xs">
            {t('post.feature.current', { date: dates.date(featured) })}
          </Text>
        ) : null}
        {canFeature ? (
          <Stack gap="sm">
            <Form method="post" {...getFormProps(featureForm)} noValidate>
              <Intent value="feature" />
              <Group align="flex-end" gap="sm">
                <TextInput
                  {...getInputProps(featureFields.until, { type: 'date' })}
                  key={featureFields.until.key}
                  label={t('post.feature.until')}
                  min={today}
                  error={error(featureFields.until)}
                  withAsterisk
                />
                <IntentSubmit intent="feature">{t('post.feature.submit')}</IntentSubmit>
              </Group>
            </Form>
            {featured ? (
              <Form method="post">
                <Intent value="unfeature" />
                <Button type="submit" variant="default" radius="xl">
                  {t('post.feature.remove')}
                </Button>
              </Form>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm">{t('post.feature.unavailable')}</Text>
        )}
      </Part>,
    );
  }
  if (canDelete) {
    parts.push(
      <Part key="delete" id="delete-title" title={t('post.delete.title')} hint={t('post.delete.hint')}>
        <Form method="post" {...getFormProps(deleteForm)} noValidate>
          <Intent value="delete" />
          <Stack gap="sm" align="flex-start">
            <Checkbox
              {...getInputProps(deleteFields.confirm, { type: 'checkbox' })}
              key={deleteFields.confirm.key}
              label={t('post.delete.confirm')}
              error={error(deleteFields.confirm)}
            />
            <IntentSubmit intent="delete" color="red.9">
              {t('post.delete.submit')}
            </IntentSubmit>
          </Stack>
        </Form>
      </Part>,
    );
  }
  return (
    <AdminSection id="decision" title={t('post.decision')}>
      <Stack gap="lg">
        <FormError code={reply?.formError} />
        {parts.length > 0 ? parts : <Text c="dimmed">{t('post.read-only')}</Text>}
      </Stack>
    </AdminSection>
  );
}

export default function ReviewAd({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const dates = useDates();
  const { ad, now } = loaderData;
  const leaf = ad.categories[ad.categories.length - 1];
  const featured = ad.featured_until && ad.featured_until > now ? ad.featured_until : null;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/posts') + loaderData.back} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('post.back')}
        </Group>
      </Anchor>
      <DoneAlert notice={loaderData.done} />
      <Stack gap="xs">
        <Title order={1} dir="auto" style={{ overflowWrap: 'anywhere' }}>
          {ad.title}
        </Title>
        <Group gap="xs">
          <StatusBadge status={ad.status} />
          {featured ? (
            <Badge color="yellow.4" c="black" variant="filled" tt="none">
              {t('posts.featured-until', { date: dates.date(featured) })}
            </Badge>
          ) : null}
          {ad.open_reports > 0 ? (
            <Badge color="red.9" c="white" variant="filled" tt="none">
              {t('posts.reports', { count: ad.open_reports })}
            </Badge>
          ) : null}
          {ad.status === 'published' && leaf ? (
            <Anchor component={Link} to={to(`/${ad.taxonomy.slug}/${leaf.slug}/${ad.slug}-${ad.id}`)} size="sm">
              <Group gap={4} component="span">
                {t('post.view-on-site')}
                <IconExternalLink size={14} aria-hidden />
              </Group>
            </Anchor>
          ) : null}
        </Group>
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <PendingChange ad={ad} rights={loaderData.rights} reply={actionData as ReviewActionData | undefined} />
            <AdminSection id="description" title={t('post.description')}>
              <Text dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {ad.description}
              </Text>
            </AdminSection>
            <Details ad={ad} />
            <Photos ad={ad} />
            <Reports ad={ad} />
            <History ad={ad} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <Decision
              ad={ad}
              rights={loaderData.rights}
              today={loaderData.today}
              now={now}
              reply={actionData as ReviewActionData | undefined}
            />
            <Summary ad={ad} now={now} />
            <Owner ad={ad} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
