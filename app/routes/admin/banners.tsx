// The banners of the back office (docs/product/back-office.md, "Banners"): every banner with its
// place, targeting, schedule, order and figures; search, filters by placement and state, sorting by
// order or age, keyset pages; bulk switch on / off and delete for those who may change banners.
import { Anchor, Button, Group, Image, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { StateBadge, useSchedule } from '~/components/admin/banner-parts.tsx';
import { FormError } from '~/components/form-error.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { BANNER_PLACEMENTS, BANNER_SORTS, BANNER_STATES } from '~/lib/banners.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { BANNER_BULK_INTENTS, bannerIdsField } from '~/lib/validation/banners.ts';
import { can } from '../../../server/domain/access.ts';
import {
  type BannerListRow,
  deleteBanners,
  listBanners,
  setBannersActive,
} from '../../../server/domain/banners/admin.ts';
import { createStorage } from '../../../server/media/storage.ts';
import type { Route } from './+types/banners';

export const middleware = guards('acl:view-banners');

const SPEC = {
  sorts: BANNER_SORTS,
  directions: { position: 'asc' },
  filters: { placement: BANNER_PLACEMENTS, state: BANNER_STATES },
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-banners');
  const t = tFor(request);
  const query = parseListQuery(new URL(request.url).searchParams, SPEC);
  const page = await listBanners(db(context), query);
  return {
    meta: { title: t('admin:banners.title'), noindex: true },
    query,
    page,
    canEdit: can(user, 'update-banners'),
  };
}

const bulkSchema = z.object({ intent: z.enum(BANNER_BULK_INTENTS), ids: bannerIdsField });

/** Bulk switch on, switch off or delete of the ticked banners (`intent`, `ids`). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (!(BANNER_BULK_INTENTS as readonly unknown[]).includes(intent)) {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const { actor } = await requireStaff(request, context, 'update-banners');
  const back = localizePath('/admin/banners', localeOf(request)) + new URL(request.url).search;
  return formAction(
    form,
    bulkSchema,
    async ({ intent, ids }) => {
      const database = db(context);
      if (intent === 'delete') {
        await deleteBanners(database, createStorage(services(context).config), actor, ids);
        return redirectWithFlash(back, 'admin-deleted');
      }
      await setBannersActive(database, actor, ids, intent === 'activate');
      return redirectWithFlash(back, 'admin-bulk');
    },
    { invalid: 'admin:banners.errors.none-selected' },
  );
}

export const meta: Route.MetaFunction = routeMeta;

export default function Banners({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const dates = useDates();
  const schedule = useSchedule();
  const number = numberFormat(locale);
  const { query, page, canEdit } = loaderData;
  const title = (r: BannerListRow) => (locale === 'en' && r.title_en) || r.title_ar;
  const columns: AdminColumn<BannerListRow>[] = [
    {
      key: 'title',
      label: t('banners.col.banner'),
      primary: true,
      render: (r) => (
        <Group gap="sm" wrap="nowrap" align="center">
          {r.thumb ? <Image src={r.thumb} alt="" w={96} h={40} radius="sm" fit="cover" loading="lazy" /> : null}
          <Anchor
            component={Link}
            to={to(`/admin/banners/${r.id}`)}
            fw={600}
            dir="auto"
            style={{ overflowWrap: 'anywhere' }}
          >
            {title(r)}
          </Anchor>
        </Group>
      ),
    },
    { key: 'placement', label: t('banners.col.placement'), render: (r) => t(`banners.placements.${r.placement}`) },
    {
      key: 'target',
      label: t('banners.col.target'),
      render: (r) => {
        const parts = [r.target.category ?? r.target.taxonomy, r.target.city]
          .filter((x) => x !== null)
          .map((x) => name(x));
        return parts.length > 0 ? (
          parts.join(' · ')
        ) : (
          <Text span c="dimmed" size="sm">
            {t('banners.target-everyone')}
          </Text>
        );
      },
    },
    {
      key: 'schedule',
      label: t('banners.col.schedule'),
      render: (r) => (
        <Stack gap={2} align="flex-start">
          <StateBadge state={r.state} />
          <Text size="xs">{schedule(r.starts_on, r.ends_on)}</Text>
        </Stack>
      ),
    },
    { key: 'position', label: t('banners.col.position'), sort: 'position', render: (r) => number.format(r.position) },
    {
      key: 'figures',
      label: t('banners.col.figures'),
      render: (r) => (
        <Text size="sm">
          {t('banners.impressions', { count: r.impressions })}
          <br />
          {t('banners.clicks', { count: r.clicks })}
        </Text>
      ),
    },
    {
      key: 'created',
      label: t('banners.col.created'),
      sort: 'created_at',
      render: (r) => <time dateTime={r.created_at}>{dates.date(r.created_at)}</time>,
    },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('banners.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('banners.intro')}
          </Text>
        </div>
        {canEdit ? (
          <Button component={Link} to={to('/admin/banners/new')} leftSection={<IconPlus size={18} aria-hidden />}>
            {t('banners.new')}
          </Button>
        ) : null}
      </Group>
      <FormError code={actionData?.formError} />
      <AdminList
        path={to('/admin/banners')}
        spec={SPEC}
        query={query}
        rows={page.rows}
        rowKey={(r) => String(r.id)}
        rowLabel={title}
        columns={columns}
        next={page.next}
        caption={t('banners.title')}
        search={t('banners.search')}
        filters={[
          {
            name: 'placement',
            label: t('banners.col.placement'),
            any: t('banners.any-placement'),
            options: BANNER_PLACEMENTS.map((p) => ({ value: p, label: t(`banners.placements.${p}`) })),
          },
          {
            name: 'state',
            label: t('banners.state'),
            any: t('banners.any-state'),
            options: BANNER_STATES.map((s) => ({ value: s, label: t(`banners.states.${s}`) })),
          },
        ]}
        bulk={
          canEdit
            ? [
                { intent: 'activate', label: t('banners.bulk.activate') },
                { intent: 'deactivate', label: t('banners.bulk.deactivate') },
                { intent: 'delete', label: t('banners.bulk.delete'), confirm: t('banners.bulk.delete-confirm') },
              ]
            : undefined
        }
        empty={{ title: t('banners.empty-title'), description: t('banners.empty') }}
      />
    </Stack>
  );
}
