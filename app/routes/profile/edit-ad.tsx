import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { AdForm, type AdFormData } from '~/components/ads/ad-form.tsx';
import { StatusBadge } from '~/components/ads/ad-parts.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, requestInfo, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { adFormSchema } from '~/lib/validation/ads.ts';
import { type AdInput, updateAd } from '../../../server/domain/ads/placing.ts';
import { confirmedPhone } from '../../../server/domain/ads/rules.ts';
import { listCategoryAttributes, listCities } from '../../../server/domain/catalog.ts';
import { editableAd, ownAd } from '../../../server/domain/owner-ads.ts';
import { readSettings } from '../../../server/domain/settings.ts';
import type { Route } from './+types/edit-ad';
import { ensureCanonical, ownAdId, ownAdPath } from './own-ad.server.ts';

// `/profile/posts/{taxonomy}/{category}/{ad}/edit`: the ad form of place-your-ad, opened with the
// member's ad (docs/product/ads.md: one form places and edits). Someone else's ad is a 404.

export const middleware = guards('auth');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const locale = localeOf(request);
  const editable = await editableAd(db(context), user.id, ownAdId(request, params));
  const { ad, path, attributes, values, reviewed } = editable;
  const rules = await readSettings(db(context));
  ensureCanonical(request, params, ad, '/edit');
  return {
    ad: { id: ad.id, title: ad.title, status: ad.status, href: ownAdPath(ad), reviewed },
    category: [path.taxonomy, ...path.trail].map((c) => localName(locale, c)),
    form: {
      attributes,
      cities: await listCities(db(context)),
      allowance: { used: 0, limit: rules.freeActiveAds },
      submissionKey: crypto.randomUUID(),
      moderation: rules.moderation,
      phone: await confirmedPhone(db(context), user.id),
      edit: { status: ad.status, values },
    } satisfies AdFormData,
    meta: { title: tFor(request)('placing:edit.title', { title: ad.title }), noindex: true },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  // The ad and its category's attributes: what the post is checked against (not its current values).
  const ad = await ownAd(db(context), user.id, ownAdId(request, params));
  const attributes = await listCategoryAttributes(db(context), ad.category_slug);
  const phone = await confirmedPhone(db(context), user.id);
  const schema = adFormSchema(attributes, { confirmedPhone: phone !== null });
  return formAction(await request.formData(), schema, async (value) => {
    const info = requestInfo(context);
    const { submission_key: _, ...input } = value as AdInput;
    const edited = await updateAd(
      db(context),
      {},
      { id: user.id, ip: info.ip, userAgent: info.userAgent },
      ad.id,
      attributes,
      input,
    );
    const target = localizePath(ownAdPath({ ...ad, slug: edited.slug }), localeOf(request));
    const done =
      edited.reviewed.length > 0
        ? 'edited-change'
        : edited.changed.length === 0
          ? 'unchanged'
          : edited.status === 'pending'
            ? 'edited-review'
            : 'edited';
    return redirectWithFlash(encodeURI(target), done);
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function EditAdPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to } = useLocale();
  const { ad } = loaderData;
  return (
    <Stack gap="lg">
      <Breadcrumbs
        items={[
          { label: t('placing:mine.title'), href: to('/profile/posts') },
          { label: ad.title, href: to(ad.href) },
          { label: t('placing:edit.crumb') },
        ]}
      />
      <Stack gap={4}>
        <Title order={1}>{t('placing:edit.heading')}</Title>
        <Group gap="xs">
          {/* The category's path; the chevrons point along the reading direction, as in breadcrumbs. */}
          <Group gap={4} c="dimmed" aria-label={t('placing:edit.category')}>
            {loaderData.category.map((name, i) => (
              <Group key={name} gap={4} wrap="nowrap">
                {i > 0 ? <IconChevronRight size={12} className="mirror-rtl" aria-hidden /> : null}
                <Text size="sm">{name}</Text>
              </Group>
            ))}
          </Group>
          <StatusBadge status={ad.status} />
        </Group>
      </Stack>
      {ad.reviewed.length > 0 ? (
        <Alert color="yellow" title={t('placing:mine.change-pending')}>
          {t('placing:edit.change-pending-hint')}
        </Alert>
      ) : null}
      <AdForm data={loaderData.form} reply={actionData} />
    </Stack>
  );
}
