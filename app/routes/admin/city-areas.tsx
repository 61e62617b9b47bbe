import type { SubmissionResult } from '@conform-to/react';
import { Anchor, Box, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Form, Link, useNavigation } from 'react-router';
import { z } from 'zod';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { OrderButtons } from '~/components/admin/order-buttons.tsx';
import { PlaceForm } from '~/components/admin/place-form.tsx';
import { FormError, useFieldError } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { type ListSpec, parseListQuery } from '~/lib/admin-list.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathId, services, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { mergeSchema, placeSchema } from '~/lib/validation/places.ts';
import {
  type AreaRow,
  cityChoices,
  createArea,
  deleteArea,
  deleteCity,
  getAdminCity,
  listAdminAreas,
  mergeArea,
  mergeCity,
  moveArea,
  updateArea,
  updateCity,
} from '../../../server/domain/admin/places.ts';
import type { Route } from './+types/city-areas';

// One city (docs/product/back-office.md, "Cities"): its names, slug and centre; its delete (only
// without ads) or its merge into another city; its areas in display order, each edited, moved,
// deleted (only without ads) or merged into another area of the city (`?area=<id>` opens one).
// Every form here changes the catalogue: the page and each action need update-cities.

export const middleware = guards('acl:update-cities');

const SPEC: ListSpec<'position'> = { sorts: ['position'], directions: { position: 'asc' } };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'update-cities');
  const id = pathId(request, params.id);
  const database = db(context);
  const url = new URL(request.url);
  const [city, areas, cities] = await Promise.all([
    getAdminCity(database, id),
    listAdminAreas(database, id),
    cityChoices(database),
  ]);
  const editing = parseId(url.searchParams.get('area'));
  return {
    meta: {
      title: `${localeOf(request) === 'ar' ? city.name_ar : city.name_en} · ${tFor(request)('admin:places.cities-title')}`,
      noindex: true,
    },
    city,
    areas,
    others: cities.filter((c) => c.id !== id),
    area: areas.find((a) => a.id === editing) ?? null,
    query: parseListQuery(url.searchParams, SPEC),
  };
}

const INTENTS = [
  'city-update',
  'city-delete',
  'city-merge',
  'area-create',
  'area-update',
  'area-up',
  'area-down',
  'area-delete',
  'area-merge',
] as const;
type Intent = (typeof INTENTS)[number];
const isIntent = (v: unknown): v is Intent => typeof v === 'string' && (INTENTS as readonly string[]).includes(v);
const nothing = z.object({});

export type AreasActionData = { result: SubmissionResult<string[]> & { form: Intent }; formError?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathId(request, params.id);
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const { actor } = await requireStaff(request, context, 'update-cities');
  const { db: database, dialect } = services(context).database;
  const locale = localeOf(request);
  const here = localizePath(`/admin/cities/${id}/areas`, locale);
  const handle = <Schema extends z.ZodType>(schema: Schema, work: (value: z.output<Schema>) => Promise<Response>) =>
    formAction(form, schema, work, { extra: { form: intent } });
  const area = () => {
    const value = parseId(form.get('area'));
    if (value === null) throw new Response(null, { status: 400, statusText: 'Bad Request' });
    return value;
  };

  switch (intent) {
    case 'city-update':
      return handle(placeSchema, async (value) => {
        await updateCity(database, actor, id, value);
        return redirectWithFlash(here, 'admin-saved');
      });
    case 'city-delete':
      return handle(nothing, async () => {
        await deleteCity(database, actor, id);
        return redirectWithFlash(localizePath('/admin/cities', locale), 'admin-deleted');
      });
    case 'city-merge':
      return handle(mergeSchema, async ({ into }) => {
        await mergeCity(database, dialect, actor, id, into);
        return redirectWithFlash(localizePath(`/admin/cities/${into}/areas`, locale), 'admin-saved');
      });
    case 'area-create':
      return handle(placeSchema, async (value) => {
        await createArea(database, actor, id, value);
        return redirectWithFlash(here, 'admin-created');
      });
    case 'area-update': {
      const areaId = area();
      return handle(placeSchema, async (value) => {
        await updateArea(database, actor, id, areaId, value);
        return redirectWithFlash(here, 'admin-saved');
      });
    }
    case 'area-up':
    case 'area-down': {
      await moveArea(database, actor, id, area(), intent === 'area-up' ? 'up' : 'down');
      return redirectWithFlash(here, 'admin-saved');
    }
    case 'area-delete': {
      const areaId = area();
      return handle(nothing, async () => {
        await deleteArea(database, actor, id, areaId);
        return redirectWithFlash(here, 'admin-deleted');
      });
    }
    case 'area-merge': {
      const areaId = area();
      return handle(mergeSchema, async ({ into }) => {
        await mergeArea(database, dialect, actor, id, areaId, into);
        return redirectWithFlash(here, 'admin-saved');
      });
    }
  }
}

export const meta: Route.MetaFunction = routeMeta;

type Named = { id: number; name_ar: string; name_en: string };

/**
 * Delete (only without ads) or merge into another place: a place with ads is never deleted, so the
 * merge is offered instead. Each asks first, stating the figures.
 */
function RemovePlace({
  kind,
  place,
  others,
  hidden,
  reply,
}: {
  kind: 'city' | 'area';
  place: Named & { ads: number; areas?: number };
  others: Named[];
  hidden?: Record<string, string>;
  reply: AreasActionData | undefined;
}) {
  const { t } = useT('admin');
  const { name } = useLocale();
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const mine = (intent: string) => (reply?.result.form === intent ? reply : undefined);
  const merge = mine(`${kind}-merge`);
  const remove = mine(`${kind}-delete`);
  const intoError = merge?.result.error?.into
    ? fieldError({ name: 'into', errors: merge.result.error.into ?? undefined })
    : undefined;
  const placeName = name(place);
  const fields = Object.entries(hidden ?? {}).map(([n, v]) => <input key={n} type="hidden" name={n} value={v} />);
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={`remove-${kind}`}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={`remove-${kind}`}>
          {t(`places.remove-${kind}`)}
        </Title>
        <FormError code={remove?.formError ?? merge?.formError} />
        {place.ads > 0 ? (
          <Text size="sm">{t(`places.has-ads-${kind}`, { count: place.ads })}</Text>
        ) : (
          <Form method="post">
            {fields}
            <ConfirmAction
              label={t(`places.delete-${kind}`)}
              statement={
                kind === 'city'
                  ? t('places.delete-city-statement', { name: placeName, count: place.areas ?? 0 })
                  : t('places.delete-area-statement', { name: placeName })
              }
              intent={`${kind}-delete`}
            />
          </Form>
        )}
        {others.length > 0 ? (
          <Form method="post">
            {fields}
            <Stack gap="xs">
              <NativeSelect
                name="into"
                label={t(`places.merge-into-${kind}`)}
                data={[
                  { value: '', label: t('places.choose') },
                  ...others.map((o) => ({ value: String(o.id), label: name(o) })),
                ]}
                error={intoError}
                required
              />
              <ConfirmAction
                label={t(`places.merge-${kind}`)}
                statement={t(`places.merge-${kind}-statement`, { name: placeName, count: place.ads })}
                intent={`${kind}-merge`}
              />
              {navigation.state === 'submitting' && navigation.formData?.get('intent') === `${kind}-merge` ? (
                <Text size="sm" role="status">
                  {t('places.merging')}
                </Text>
              ) : null}
            </Stack>
          </Form>
        ) : null}
      </Stack>
    </Paper>
  );
}

export default function CityAreas({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  useAreaCatalogues('admin');
  const { to, name, locale } = useLocale();
  const number = numberFormat(locale);
  const { city, areas, others, area, query } = loaderData;
  const reply = actionData as AreasActionData | undefined;
  const mine = (intent: Intent) => (reply?.result.form === intent ? reply : undefined);
  const path = to(`/admin/cities/${city.id}/areas`);
  return (
    <Stack gap="lg">
      <Box>
        <Anchor component={Link} to={to('/admin/cities')} size="sm" py={12} display="inline-flex">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
            {t('places.back')}
          </Group>
        </Anchor>
        <Title order={1}>{name(city)}</Title>
        <Text c="dimmed" size="sm">
          {t('places.city-summary', { ads: number.format(city.ads), areas: number.format(city.areas) })}
        </Text>
      </Box>

      <PlaceForm
        id={`city-${city.id}`}
        title={t('places.edit-city')}
        intent="city-update"
        submit={t('places.save')}
        values={city}
        lastResult={mine('city-update')?.result}
        formError={mine('city-update')?.formError}
      />
      <RemovePlace kind="city" place={city} others={others} reply={reply} />

      <Title order={2} size="h3">
        {t('places.areas-title')}
      </Title>
      <AdminList<AreaRow>
        path={path}
        spec={SPEC}
        query={query}
        rows={areas}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => name(r)}
        next={null}
        caption={t('places.areas-title')}
        empty={{ title: t('places.empty-title'), description: t('places.empty-areas') }}
        columns={[
          {
            key: 'name',
            label: t('places.col.name'),
            primary: true,
            render: (r) => (
              <Anchor
                component={Link}
                to={`${path}?area=${r.id}#edit-area`}
                fw={600}
                aria-current={area?.id === r.id ? 'true' : undefined}
              >
                {name(r)}
              </Anchor>
            ),
          },
          {
            key: 'slug',
            label: t('places.col.slug'),
            render: (r) => (
              <Text size="sm" dir="ltr" span>
                {r.slug}
              </Text>
            ),
          },
          { key: 'ads', label: t('places.col.ads'), render: (r) => number.format(r.ads) },
          {
            key: 'position',
            label: t('places.col.order'),
            render: (r) => (
              <AreaOrder
                id={r.id}
                name={name(r)}
                first={r.id === areas[0]?.id}
                last={r.id === areas[areas.length - 1]?.id}
              />
            ),
          },
        ]}
      />

      {area ? (
        <Stack gap="lg" id="edit-area">
          <PlaceForm
            key={area.id}
            id={`area-${area.id}`}
            title={t('places.edit-area', { name: name(area) })}
            intent="area-update"
            submit={t('places.save')}
            values={area}
            hidden={{ area: String(area.id) }}
            lastResult={mine('area-update')?.result}
            formError={mine('area-update')?.formError}
          />
          <RemovePlace
            kind="area"
            place={area}
            others={areas.filter((a) => a.id !== area.id)}
            hidden={{ area: String(area.id) }}
            reply={reply}
          />
          <Anchor component={Link} to={path} py={12}>
            {t('places.add-area-instead')}
          </Anchor>
        </Stack>
      ) : (
        <PlaceForm
          id="new-area"
          title={t('places.add-area')}
          intent="area-create"
          submit={t('places.create')}
          centre={{ lat: city.lat, lng: city.lng }}
          lastResult={mine('area-create')?.result}
          formError={mine('area-create')?.formError}
        />
      )}
      <Button component={Link} to={to('/admin/cities')} variant="default" w="fit-content">
        {t('places.back')}
      </Button>
    </Stack>
  );
}

/** The up/down of an area: the cities' buttons, sending the area's id and the area intents. */
function AreaOrder({ id, name, first, last }: { id: number; name: string; first: boolean; last: boolean }) {
  return <OrderButtons id={id} name={name} first={first} last={last} field="area" intents={['area-up', 'area-down']} />;
}
