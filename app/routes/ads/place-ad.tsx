import { Stack, Text, Title } from '@mantine/core';
import { redirect } from 'react-router';
import { AdForm, type AdFormData } from '~/components/ads/ad-form.tsx';
import { CategoryPicker } from '~/components/ads/category-picker.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { ownerTabOf, ownerTabPath } from '~/lib/owner-tabs.ts';
import { db, localeOf, notFound, requestInfo, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { SLUG_PATTERN } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { adFormSchema } from '~/lib/validation/ads.ts';
import { type AdInput, createAd, isLeaf, resolveCategoryPath } from '../../../server/domain/ads/placing.ts';
import { activeAdLimit, confirmedPhone, countActiveAds } from '../../../server/domain/ads/rules.ts';
import { getTaxonomy, listCategoryAttributes, listChildren, listCities } from '../../../server/domain/catalog.ts';
import { readSettings } from '../../../server/domain/settings.ts';
import type { Route } from './+types/place-ad';

// Place your ad, steps 2 and 3: `/place-your-ad/{taxonomy}/{category...}` drills down the
// categories until a leaf, whose page is the ad form (docs/product/site.md, docs/product/ads.md).

export const middleware = guards('auth');

async function place(request: Request, context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']) {
  const segments = (params['*'] ?? '').split('/').filter(Boolean);
  if (![params.taxonomy, ...segments].every((s) => SLUG_PATTERN.test(s))) throw notFound(request);
  const taxonomy = await getTaxonomy(db(context), params.taxonomy);
  if (segments.length === 0) return { taxonomy, path: null, segments };
  const path = await resolveCategoryPath(db(context), taxonomy.slug, segments);
  return { taxonomy, path, segments };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const t = tFor(request);
  const locale = localeOf(request);
  const { taxonomy, path, segments } = await place(request, context, params);
  const meta = { title: t('placing:place.title'), description: t('placing:place.description'), noindex: true };
  const crumbs = [taxonomy, ...(path?.trail ?? [])].map((x) => ({ name: localName(locale, x), slug: x.slug }));
  if (!path || !isLeaf(path)) {
    const children = await listChildren(db(context), taxonomy.id, path?.category.id ?? null);
    return { kind: 'pick' as const, meta, crumbs, segments, taxonomy: taxonomy.slug, children };
  }
  const [attributes, cities, active, limit, phone, rules] = await Promise.all([
    listCategoryAttributes(db(context), path.category.slug),
    listCities(db(context)),
    countActiveAds(db(context), user.id),
    activeAdLimit(db(context), user.id),
    confirmedPhone(db(context), user.id),
    readSettings(db(context)),
  ]);
  return {
    kind: 'form' as const,
    meta,
    crumbs,
    segments,
    taxonomy: taxonomy.slug,
    form: {
      attributes,
      cities,
      allowance: { used: active, limit },
      // A new key per visit of the form: a second submit of the same form finds the first ad.
      submissionKey: crypto.randomUUID(),
      moderation: rules.moderation,
      phone,
    } satisfies AdFormData,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const { path } = await place(request, context, params);
  if (!path || !isLeaf(path)) throw notFound(request);
  const attributes = await listCategoryAttributes(db(context), path.category.slug);
  const phone = await confirmedPhone(db(context), user.id);
  const schema = adFormSchema(attributes, { confirmedPhone: phone !== null });
  return formAction(await request.formData(), schema, async (value) => {
    const info = requestInfo(context);
    const ad = await createAd(
      db(context),
      {},
      { id: user.id, ip: info.ip, userAgent: info.userAgent },
      path,
      attributes,
      value as AdInput,
    );
    // To My ads, on the tab that holds the new ad (pending under pre-moderation, else active),
    // where its confirmation shows (app/routes/profile/posts.tsx).
    return redirect(localizePath(ownerTabPath(ownerTabOf(ad.status), { placed: String(ad.id) }), localeOf(request)));
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function PlaceAdPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to } = useLocale();
  const base = to(`/place-your-ad/${loaderData.taxonomy}`);
  const crumbs = [
    { label: t('placing:place.title'), href: to('/place-your-ad') },
    ...loaderData.crumbs.map((c, i) => ({
      label: c.name,
      href: i < loaderData.crumbs.length - 1 ? [base, ...loaderData.segments.slice(0, i)].join('/') : undefined,
    })),
  ];
  return (
    <Stack gap="lg">
      <Breadcrumbs items={crumbs} />
      <Title order={1}>{t('placing:place.title')}</Title>
      {loaderData.kind === 'pick' ? (
        <>
          <Text c="dimmed">{t('placing:place.pick-category')}</Text>
          <CategoryPicker base={[base, ...loaderData.segments].join('/')} categories={loaderData.children} />
        </>
      ) : (
        <AdForm data={loaderData.form} reply={actionData} />
      )}
    </Stack>
  );
}
