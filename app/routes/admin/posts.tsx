import { getFormProps } from '@conform-to/react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronRight, IconChevronsLeft, IconInbox } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, redirect, useNavigation } from 'react-router';
import {
  DoneAlert,
  RejectFields,
  StatusBadge,
  Thumb,
  useModerationError,
} from '~/components/admin/moderation-parts.tsx';
import { MetaLine, usePrice } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { useValidatedForm } from '~/components/form-parts.tsx';
import { RelativeTime, useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { parseDone, parseQueueQuery, QUEUE_TABS, type QueueQuery, queueSearch } from '~/lib/moderation.ts';
import { db, tFor } from '~/lib/route.server.ts';
import { requirePermission } from '~/lib/session.server.ts';
import { actorOf } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { isBulkIntent, queueSchema, rejectionReasonValue } from '~/lib/validation/moderation.ts';
import type { AdStatus } from '../../../server/db/schema.ts';
import { decodeCursor } from '../../../server/domain/admin/keyset.ts';
import { listCityNames, listTaxonomies } from '../../../server/domain/catalog.ts';
import { listModerationQueue, moveAds, type QueueItem } from '../../../server/domain/moderation.ts';
import type { Route } from './+types/posts';
import { type ModerationRights, queueTarget, rightsOf } from './moderation.server.ts';

// The moderation queue (docs/product-notes.md, "Moderation"): ads by status, filtered by section, city and
// open reports (GET parameters: works without JavaScript), with bulk approve / reject. Each action
// is checked on the server against its own permission.

export const middleware = guards('acl:view-ads');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requirePermission(request, context, 'view-ads');
  const t = tFor(request);
  const database = db(context);
  const [taxonomies, cities] = await Promise.all([listTaxonomies(database), listCityNames(database)]);
  const url = new URL(request.url);
  const query = parseQueueQuery(url.searchParams, {
    taxonomies: taxonomies.map((x) => x.slug),
    cities: cities.map((c) => c.slug),
  });
  const queue = await listModerationQueue(database, {
    status: query.status,
    taxonomyId: taxonomies.find((x) => x.slug === query.taxonomy)?.id,
    cityId: cities.find((c) => c.slug === query.city)?.id,
    reported: query.reported,
    ownerId: query.owner || undefined,
    changes: query.changes,
    after: decodeCursor(query.after),
  });
  return {
    meta: { title: t('admin:posts.title'), noindex: true },
    query,
    queue,
    taxonomies: taxonomies.map(({ slug, name_ar, name_en }) => ({ slug, name_ar, name_en })),
    cities: cities.map(({ slug, name_ar, name_en }) => ({ slug, name_ar, name_en })),
    rights: rightsOf(user),
    now: new Date().toISOString(),
    done: parseDone(url.searchParams),
  };
}

/**
 * Bulk approve / reject of the ticked ads (`intent=bulk-approve|bulk-reject`, `ids`, `reason`,
 * `reason_text`), or one row's approve (`intent=approve:<id>`). Ads whose status changed meanwhile
 * are skipped and counted; every move goes through the status machine (history, revision,
 * notification, counters).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const row = intent.startsWith('approve:') ? parseId(intent.slice('approve:'.length)) : null;
  if (row === null && !isBulkIntent(intent)) {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const user = await requirePermission(request, context, 'approve-ads');
  return formAction(form, queueSchema, async (value) => {
    const move = intent === 'bulk-reject' ? 'reject' : 'approve';
    const reason = move === 'reject' ? rejectionReasonValue(value) : undefined;
    const ids = row !== null ? [row] : (value.ids ?? []);
    const done = await moveAds(db(context), actorOf(user, context), ids, move, { reason });
    return redirect(queueTarget(request, { done: move === 'reject' ? 'rejected' : 'approved', ...done }));
  });
}

export const meta: Route.MetaFunction = routeMeta;

type Named = { slug: string; name_ar: string; name_en: string };

/** The status tabs: links, so they work without JavaScript; the other filters are kept. */
function StatusTabs({
  query,
  counts,
  changes,
}: {
  query: QueueQuery;
  counts: Record<AdStatus, number>;
  changes: number;
}) {
  const { t } = useT('admin');
  const { to, locale } = useLocale();
  const number = numberFormat(locale);
  const always: AdStatus[] = ['pending', 'published', 'rejected'];
  return (
    <Group component="nav" aria-label={t('posts.tabs')} gap="xs">
      {QUEUE_TABS.filter((s) => always.includes(s) || counts[s] > 0 || s === query.status).flatMap((s) => {
        const active = s === query.status && !query.changes;
        const tab = (
          <Button
            key={s}
            component={Link}
            to={to('/admin/posts') + queueSearch(query, { status: s, changes: false, after: '' })}
            variant={active ? 'filled' : 'default'}
            radius="xl"
            size="compact-md"
            aria-current={active ? 'page' : undefined}
          >
            {t(`statuses.${s}`)}
            <Text span ms={6} fw={700} inherit>
              {number.format(counts[s] ?? 0)}
            </Text>
          </Button>
        );
        if (s !== 'pending') return [tab];
        // Edits of live ads waiting for review come right after new ads waiting for it.
        return [
          tab,
          <Button
            key="changes"
            component={Link}
            to={to('/admin/posts') + queueSearch(query, { changes: true, after: '' })}
            variant={query.changes ? 'filled' : 'default'}
            radius="xl"
            size="compact-md"
            aria-current={query.changes ? 'page' : undefined}
          >
            {t('posts.changes-tab')}
            <Text span ms={6} fw={700} inherit>
              {number.format(changes)}
            </Text>
          </Button>,
        ];
      })}
    </Group>
  );
}

/** Section, city and "reported only": a GET form, so the filters live in the address. */
function Filters({ query, taxonomies, cities }: { query: QueueQuery; taxonomies: Named[]; cities: Named[] }) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const filtered = query.taxonomy || query.city || query.reported || query.owner;
  return (
    <Paper withBorder radius="lg" p="md">
      <Form method="get" action={to('/admin/posts')} role="search" aria-label={t('posts.filters')}>
        {query.changes ? <input type="hidden" name="changes" value="1" /> : null}
        {query.owner ? <input type="hidden" name="owner" value={query.owner} /> : null}
        {query.status !== 'pending' && !query.changes ? (
          <input type="hidden" name="status" value={query.status} />
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="sm">
          <NativeSelect
            name="taxonomy"
            label={t('posts.taxonomy')}
            defaultValue={query.taxonomy}
            data={[
              { value: '', label: t('posts.all-taxonomies') },
              ...taxonomies.map((x) => ({ value: x.slug, label: name(x) })),
            ]}
          />
          <NativeSelect
            name="city"
            label={t('posts.city')}
            defaultValue={query.city}
            data={[
              { value: '', label: t('posts.all-cities') },
              ...cities.map((c) => ({ value: c.slug, label: name(c) })),
            ]}
          />
          <Checkbox
            name="reported"
            value="1"
            label={t('posts.reported')}
            defaultChecked={query.reported}
            mt={{ base: 0, xs: 30 }}
          />
          <Group gap="xs" align="flex-end">
            <Button type="submit" radius="xl">
              {t('posts.apply')}
            </Button>
            {filtered ? (
              <Anchor
                component={Link}
                to={
                  to('/admin/posts') +
                  queueSearch(query, { taxonomy: '', city: '', reported: false, owner: '', after: '' })
                }
                size="sm"
                py={8}
              >
                {t('posts.clear')}
              </Anchor>
            ) : null}
          </Group>
        </SimpleGrid>
      </Form>
    </Paper>
  );
}

/** Keyset pages (server/domain/admin/keyset.ts): back to the first page, on to the next. */
function Pager({ query, next }: { query: QueueQuery; next: string | null }) {
  const { t } = useT('admin');
  const { to } = useLocale();
  if (!query.after && next === null) return null;
  const href = (after: string) => to('/admin/posts') + queueSearch(query, { after });
  return (
    <Group component="nav" aria-label={t('list.pages')} justify="center" gap="sm">
      {query.after ? (
        <Button
          component={Link}
          to={href('')}
          variant="default"
          radius="xl"
          leftSection={<IconChevronsLeft className="mantine-rotate-rtl" size={16} aria-hidden />}
        >
          {t('list.first-page')}
        </Button>
      ) : null}
      {next !== null ? (
        <Button
          component={Link}
          to={href(next)}
          variant="default"
          radius="xl"
          rel="next"
          rightSection={<IconChevronRight className="mantine-rotate-rtl" size={16} aria-hidden />}
        >
          {t('list.next-page')}
        </Button>
      ) : null}
    </Group>
  );
}

/** Category path, e.g. "Motors › Cars › Toyota". */
function useTrail() {
  const { name } = useLocale();
  return (item: Pick<QueueItem, 'taxonomy' | 'categories'>) =>
    [item.taxonomy, ...item.categories].map(name).join(' › ');
}

/** One ad as a table row (wide screens) or a card (phones): the same facts. */
function useRowParts(item: QueueItem, now: string, query: QueueQuery) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const price = usePrice();
  const trail = useTrail();
  const dates = useDates();
  const number = numberFormat(locale);
  const href = to(`/admin/posts/${item.id}`) + queueSearch(query);
  const featured = item.featured_until && item.featured_until > now ? item.featured_until : null;
  return {
    title: (
      <Anchor component={Link} to={href} fw={600} dir="auto" style={{ overflowWrap: 'anywhere' }}>
        {item.title}
      </Anchor>
    ),
    trail: (
      <Text size="xs" c="dimmed">
        {trail(item)}
      </Text>
    ),
    city: name(item.city),
    price: (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {price(item)}
      </Text>
    ),
    owner: item.owner ? (
      <Text size="sm" dir="auto">
        {item.owner.name}
      </Text>
    ) : (
      <Text size="sm" c="dimmed">
        {t('posts.deleted-owner')}
      </Text>
    ),
    times: (
      <Stack gap={0}>
        <Text size="xs">
          {t('posts.created')} <RelativeTime iso={item.created_at} now={now} />
        </Text>
        {item.updated_at !== item.created_at ? (
          <Text size="xs" c="dimmed">
            {t('posts.updated')} <RelativeTime iso={item.updated_at} now={now} />
          </Text>
        ) : null}
      </Stack>
    ),
    status: (
      <Stack gap={4} align="flex-start">
        <StatusBadge status={item.status} />
        {item.change_at ? (
          <Badge color="yellow.4" c="black" variant="filled" tt="none">
            {t('posts.change-waiting')}
          </Badge>
        ) : null}
        {featured ? (
          <Text size="xs" c="dimmed">
            {t('posts.featured-until', { date: dates.date(featured) })}
          </Text>
        ) : null}
      </Stack>
    ),
    reports:
      item.open_reports > 0 ? (
        <Text size="sm" fw={700} c="var(--mantine-color-error)">
          {t('posts.reports', { count: item.open_reports })}
        </Text>
      ) : null,
    noReports: (
      <Text size="sm" c="dimmed">
        {number.format(0)}
      </Text>
    ),
  };
}

function ApproveButton({ item, fullWidth }: { item: QueueItem; fullWidth?: boolean }) {
  const { t } = useT('admin');
  const navigation = useNavigation();
  const value = `approve:${item.id}`;
  return (
    <Button
      type="submit"
      name="intent"
      value={value}
      size="xs"
      radius="xl"
      fullWidth={fullWidth}
      loading={navigation.state === 'submitting' && navigation.formData?.get('intent') === value}
      aria-label={t('posts.approve-named', { title: item.title })}
    >
      {t('posts.approve')}
    </Button>
  );
}

function QueueRow({ item, now, query, select, approve }: RowProps) {
  const { t } = useT('admin');
  const parts = useRowParts(item, now, query);
  return (
    <Table.Tr>
      {select ? (
        <Table.Td>
          <Checkbox name="ids" value={String(item.id)} aria-label={t('posts.select', { title: item.title })} />
        </Table.Td>
      ) : null}
      <Table.Td>
        <Thumb src={item.photo?.thumb ?? null} size={56} />
      </Table.Td>
      <Table.Td maw={320}>
        <Stack gap={2}>
          {parts.title}
          {parts.trail}
        </Stack>
      </Table.Td>
      <Table.Td>{parts.city}</Table.Td>
      <Table.Td>{parts.price}</Table.Td>
      <Table.Td>{parts.owner}</Table.Td>
      <Table.Td>{parts.times}</Table.Td>
      <Table.Td>{parts.status}</Table.Td>
      <Table.Td>{parts.reports ?? parts.noReports}</Table.Td>
      {approve ? <Table.Td>{item.status === 'pending' ? <ApproveButton item={item} /> : null}</Table.Td> : null}
    </Table.Tr>
  );
}

function QueueCard({ item, now, query, select, approve }: RowProps) {
  const { t } = useT('admin');
  const parts = useRowParts(item, now, query);
  return (
    <Card withBorder radius="lg" padding="sm" component="li">
      <Group align="flex-start" wrap="nowrap" gap="sm">
        {select ? (
          <label className="tap-label">
            <Checkbox name="ids" value={String(item.id)} aria-label={t('posts.select', { title: item.title })} />
          </label>
        ) : null}
        <Thumb src={item.photo?.thumb ?? null} size={72} />
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          {parts.title}
          {parts.trail}
          <Text size="sm" component="div">
            <MetaLine
              items={[
                { key: 'city', text: parts.city },
                { key: 'price', text: parts.price },
              ]}
            />
          </Text>
          {parts.owner}
          {parts.times}
          <Group gap="sm">
            {parts.status}
            {parts.reports}
          </Group>
        </Stack>
      </Group>
      {approve && item.status === 'pending' ? (
        <Box mt="sm">
          <ApproveButton item={item} fullWidth />
        </Box>
      ) : null}
    </Card>
  );
}

interface RowProps {
  item: QueueItem;
  now: string;
  query: QueueQuery;
  select: boolean;
  approve: boolean;
}

/** Ticks or clears every checkbox of the list it sits in (only with JavaScript, so it appears after hydration). */
function SelectAll({ label }: { label: string }) {
  const ref = useRef<HTMLInputElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return <VisuallyHidden>{label}</VisuallyHidden>;
  return (
    <Checkbox
      ref={ref}
      aria-label={label}
      onChange={(e) => {
        const list = ref.current?.closest('table');
        for (const box of list?.querySelectorAll<HTMLInputElement>('input[name="ids"]') ?? []) {
          box.checked = e.currentTarget.checked;
        }
      }}
    />
  );
}

function QueueList({
  items,
  now,
  query,
  rights,
  lastResult,
}: {
  items: QueueItem[];
  now: string;
  query: QueueQuery;
  rights: ModerationRights;
  lastResult: Parameters<typeof useValidatedForm>[2];
}) {
  const { t } = useT('admin');
  const error = useModerationError();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm('queue-form', queueSchema, lastResult);
  // Bulk actions apply where the status machine allows them: approve pending ads, reject pending or published ones.
  // Pending changes are decided one by one on the review page (they are compared field by field).
  const bulk = rights.approve && !query.changes && (query.status === 'pending' || query.status === 'published');
  const approve = rights.approve && !query.changes && query.status === 'pending';
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const idsError = error(fields.ids);
  const rowProps = { now, query, select: bulk, approve };
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <Stack gap="md">
        {bulk ? (
          <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="bulk-title">
            <Title order={2} size="h5" id="bulk-title">
              {t('posts.bulk.title')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('posts.bulk.hint')}
            </Text>
            {idsError ? (
              <Text size="sm" c="var(--mantine-color-error)" role="alert" id={fields.ids.errorId} mb="sm">
                {idsError}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <RejectFields reason={fields.reason} text={fields.reason_text} />
            </SimpleGrid>
            <Group gap="sm" mt="sm">
              {approve ? (
                <Button type="submit" name="intent" value="bulk-approve" radius="xl" loading={busy('bulk-approve')}>
                  {t('posts.bulk.approve')}
                </Button>
              ) : null}
              <Button
                type="submit"
                name="intent"
                value="bulk-reject"
                radius="xl"
                color="red.9"
                loading={busy('bulk-reject')}
              >
                {t('posts.bulk.reject')}
              </Button>
            </Group>
          </Paper>
        ) : null}

        <Box visibleFrom="sm" style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-labelledby="queue-caption">
          <Table verticalSpacing="sm" miw={900} highlightOnHover>
            <Table.Caption id="queue-caption" style={{ captionSide: 'top', textAlign: 'start' }}>
              <VisuallyHidden>{t('posts.list')}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {bulk ? (
                  <Table.Th w={40}>
                    <SelectAll label={t('posts.select-all')} />
                  </Table.Th>
                ) : null}
                <Table.Th w={72}>
                  <VisuallyHidden>{t('posts.col.photo')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('posts.col.ad')}</Table.Th>
                <Table.Th>{t('posts.col.place')}</Table.Th>
                <Table.Th>{t('posts.col.price')}</Table.Th>
                <Table.Th>{t('posts.col.owner')}</Table.Th>
                <Table.Th>{t('posts.col.time')}</Table.Th>
                <Table.Th>{t('posts.col.status')}</Table.Th>
                <Table.Th>{t('posts.col.reports')}</Table.Th>
                {approve ? (
                  <Table.Th>
                    <VisuallyHidden>{t('posts.col.actions')}</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <QueueRow key={item.id} item={item} {...rowProps} />
              ))}
            </Table.Tbody>
          </Table>
        </Box>

        <Stack
          component="ul"
          hiddenFrom="sm"
          gap="sm"
          p={0}
          m={0}
          aria-label={t('posts.list')}
          style={{ listStyle: 'none' }}
        >
          {items.map((item) => (
            <QueueCard key={item.id} item={item} {...rowProps} />
          ))}
        </Stack>
      </Stack>
    </Form>
  );
}

export default function ModerationQueue({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { queue, query, rights, now } = loaderData;
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('posts.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('posts.intro')}
        </Text>
      </Box>
      <DoneAlert notice={loaderData.done} />
      <StatusTabs query={query} counts={queue.counts} changes={queue.changes} />
      <Filters query={query} taxonomies={loaderData.taxonomies} cities={loaderData.cities} key={queueSearch(query)} />
      <Text fw={600}>{t('posts.results', { count: queue.total })}</Text>
      {queue.items.length === 0 ? (
        <EmptyState
          icon={<IconInbox aria-hidden />}
          title={t('posts.empty-title')}
          description={
            query.changes && !query.taxonomy && !query.city && !query.reported
              ? t('posts.empty-changes')
              : query.status === 'pending' && !query.taxonomy && !query.city && !query.reported
                ? t('posts.empty-pending')
                : t('posts.empty')
          }
        />
      ) : (
        <QueueList items={queue.items} now={now} query={query} rights={rights} lastResult={actionData?.result} />
      )}
      <Pager query={query} next={queue.next} />
    </Stack>
  );
}
