import { Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { AdminList } from '~/components/admin/admin-list.tsx';
import { OrderButtons } from '~/components/admin/order-buttons.tsx';
import { PlaceForm } from '~/components/admin/place-form.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { type ListSpec, listSearch, parseListQuery } from '~/lib/admin-list.ts';
import { CITY_SORTS } from '~/lib/admin-lists.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { placeSchema } from '~/lib/validation/places.ts';
import { can } from '../../../server/domain/access.ts';
import { type CityRow, createCity, listAdminCities, moveCity } from '../../../server/domain/admin/places.ts';
import type { Route } from './+types/cities';

// The cities (docs/product/back-office.md, "Cities"): a list in display order (or by name),
// searched by name or slug, with each city's areas and ads; staff who may change them (update-cities)
// also get the up/down buttons of the order and the form that adds a city. Each city's own page
// (its areas, edit, merge, delete) is ./city-areas.tsx.

export const middleware = guards('acl:view-cities');

const SPEC: ListSpec<(typeof CITY_SORTS)[number]> = {
  sorts: CITY_SORTS,
  directions: { position: 'asc', name: 'asc' },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-cities');
  const query = parseListQuery(new URL(request.url).searchParams, SPEC);
  const page = await listAdminCities(db(context), { ...query, locale: localeOf(request) });
  return {
    meta: { title: tFor(request)('admin:places.cities-title'), noindex: true },
    query,
    page,
    canEdit: can(user, 'update-cities'),
  };
}

/** `intent=create` (the new city's fields), or `intent=up|down` with `id`: both need update-cities. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  if (intent !== 'create' && intent !== 'up' && intent !== 'down') {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const { actor } = await requireStaff(request, context, 'update-cities');
  const list = localizePath('/admin/cities', localeOf(request));
  if (intent === 'create') {
    return formAction(form, placeSchema, async (value) => {
      const id = await createCity(db(context), actor, value);
      return redirectWithFlash(localizePath(`/admin/cities/${id}/areas`, localeOf(request)), 'admin-created');
    });
  }
  const id = parseId(form.get('id'));
  if (id === null) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  await moveCity(db(context), actor, id, intent);
  const back = listSearch(SPEC, parseListQuery(new URL(request.url).searchParams, SPEC));
  return redirectWithFlash(list + back, 'admin-saved');
}

export const meta: Route.MetaFunction = routeMeta;

export default function Cities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  useAreaCatalogues('admin');
  const { to, name, locale } = useLocale();
  const number = numberFormat(locale);
  const { query, page, canEdit } = loaderData;
  // Up and down move a city in the display order: offered on that order, unsearched.
  const ordering = canEdit && query.sort === 'position' && query.dir === 'asc' && !query.q;
  const rows = page.rows;
  const path = to('/admin/cities');
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('places.cities-title')}</Title>
        <Text c="dimmed" size="sm">
          {t('places.cities-intro')}
        </Text>
      </Box>
      <AdminList<CityRow>
        path={path}
        spec={SPEC}
        query={query}
        rows={rows}
        rowKey={(r) => String(r.id)}
        rowLabel={(r) => name(r)}
        next={page.next}
        caption={t('places.cities-title')}
        search={t('places.search')}
        empty={{ title: t('places.empty-title'), description: t('places.empty-cities') }}
        columns={[
          {
            key: 'name',
            label: t('places.col.name'),
            sort: 'name',
            primary: true,
            render: (r) =>
              canEdit ? (
                <Anchor component={Link} to={to(`/admin/cities/${r.id}/areas`)} fw={600}>
                  {name(r)}
                </Anchor>
              ) : (
                <Text fw={600}>{name(r)}</Text>
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
          { key: 'areas', label: t('places.col.areas'), render: (r) => number.format(r.areas) },
          { key: 'ads', label: t('places.col.ads'), render: (r) => number.format(r.ads) },
          {
            key: 'position',
            label: t('places.col.order'),
            sort: 'position',
            render: (r) =>
              ordering ? (
                <OrderButtons
                  id={r.id}
                  name={name(r)}
                  first={!query.after && r.id === rows[0]?.id}
                  last={page.next === null && r.id === rows[rows.length - 1]?.id}
                />
              ) : (
                number.format(r.position + 1)
              ),
          },
        ]}
      />
      {canEdit ? (
        <details open={actionData?.result?.status === 'error' || undefined}>
          <Text component="summary" fw={600} py={12} style={{ cursor: 'pointer' }}>
            {t('places.add-city')}
          </Text>
          <PlaceForm
            id="new-city"
            title={t('places.add-city')}
            intent="create"
            submit={t('places.create')}
            lastResult={actionData?.result}
            formError={actionData?.formError}
          />
        </details>
      ) : null}
    </Stack>
  );
}
