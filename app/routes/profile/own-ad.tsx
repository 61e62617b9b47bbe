import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconEye, IconHeart, IconPhone, IconStar } from '@tabler/icons-react';
import { Form, Link } from 'react-router';
import { z } from 'zod';
import { MetaLine, StatusBadge, usePrice, useReasonLabel } from '~/components/ads/ad-parts.tsx';
import { OwnerAdActions } from '~/components/ads/owner-actions.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { FormError } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, requestInfo, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { featureOwnAd } from '../../../server/domain/ads/status.ts';
import { featureState, ownAd, ownAdDetail } from '../../../server/domain/owner-ads.ts';
import type { Route } from './+types/own-ad';
import { ensureCanonical, ownAdId, ownAdPath } from './own-ad.server.ts';

// `/profile/posts/{taxonomy}/{category}/{ad}` (docs/product/ads.md): one of the member's ads with its
// status history and views per day, and — for a published ad, when the member's packages have a
// featured ad left — a button that features it (docs/product/back-office.md, "Packages"). Someone
// else's ad is a 404.

export const middleware = guards('auth');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const ad = await ownAdDetail(db(context), user.id, ownAdId(request, params));
  ensureCanonical(request, params, ad);
  const feature = await featureState(db(context), user.id, ad.id);
  return {
    ad,
    feature,
    meta: { title: tFor(request)('placing:mine.detail-title', { title: ad.title }), noindex: true },
  };
}

/** `intent=feature`: one of the member's package featured ads spent on this ad. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const ad = await ownAd(db(context), user.id, ownAdId(request, params));
  const info = requestInfo(context);
  return formAction(
    await request.formData(),
    z.object({ intent: z.literal('feature') }),
    async () => {
      await featureOwnAd(db(context), { id: user.id, ip: info.ip, userAgent: info.userAgent }, ad.id);
      return redirectWithFlash(encodeURI(localizePath(ownAdPath(ad), localeOf(request))), 'ad-featured');
    },
    { invalid: 'bad-request' },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

/** Featuring the ad with a package's featured ad: the button while one is left, and until when it is featured. */
function FeatureCard({
  feature,
  published,
  formError,
}: {
  feature: Route.ComponentProps['loaderData']['feature'];
  published: boolean;
  formError: unknown;
}) {
  const { t } = useT('ads');
  const { locale } = useLocale();
  if (!published || (feature.credits === 0 && !feature.featuredUntil)) return <FormError code={formError} />;
  return (
    <Card withBorder radius="lg" data-testid="feature-card">
      <Stack gap="xs">
        <Group gap="xs">
          <IconStar size={20} aria-hidden />
          <Title order={2} size="h4">
            {t('placing:mine.feature-title')}
          </Title>
        </Group>
        {feature.featuredUntil ? (
          <Text size="sm">{t('placing:mine.featured-until', { date: dates(locale).date(feature.featuredUntil) })}</Text>
        ) : null}
        <FormError code={formError} />
        {feature.credits > 0 ? (
          <Form method="post">
            <Stack gap="xs" align="flex-start">
              <Text size="sm" c="dimmed">
                {t('placing:mine.feature-cost', { count: feature.credits, days: feature.days })}
              </Text>
              <Button type="submit" name="intent" value="feature" radius="xl" mih={44}>
                {feature.featuredUntil
                  ? t('placing:mine.feature-longer', { count: feature.days })
                  : t('placing:mine.feature', { count: feature.days })}
              </Button>
            </Stack>
          </Form>
        ) : null}
      </Stack>
    </Card>
  );
}

export default function OwnAdPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const reasonLabel = useReasonLabel();
  const { to, locale } = useLocale();
  const price = usePrice();
  const { ad } = loaderData;
  const { dateTime: when, day } = dates(locale);
  const max = Math.max(1, ...ad.views_per_day.map((v) => v.views));
  const total = ad.views_per_day.reduce((n, v) => n + v.views, 0);
  const reveals = ad.views_per_day.reduce((n, v) => n + v.phone_reveals, 0);
  return (
    <Stack gap="lg">
      <Breadcrumbs items={[{ label: t('placing:mine.title'), href: to('/profile/posts') }, { label: ad.title }]} />
      <Group justify="space-between" align="flex-start">
        <Title order={1} size="h2" dir="auto">
          {ad.title}
        </Title>
        <StatusBadge status={ad.status} />
      </Group>
      <Text fw={700} c="brand">
        {price(ad)}
      </Text>
      {ad.pending_change ? (
        <Alert color="yellow" role="status" title={t('placing:mine.change-pending')}>
          {t('placing:mine.change-pending-hint')}
        </Alert>
      ) : null}
      {ad.status === 'rejected' && ad.rejection_reason ? (
        <Alert color="red" role="status">
          {t('page.reason', { reason: reasonLabel(ad.rejection_reason) })} {t('placing:mine.rejected-hint')}
        </Alert>
      ) : null}
      <Anchor component={Link} to={to(`/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`)}>
        {t('placing:mine.open-page')}
      </Anchor>
      <OwnerAdActions ad={ad} />
      <FeatureCard
        feature={loaderData.feature}
        published={ad.status === 'published'}
        formError={actionData?.formError}
      />
      <Card withBorder radius="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('placing:mine.views-title')}
          </Title>
          <Text size="sm" c="dimmed">
            <MetaLine
              items={[
                {
                  key: 'views',
                  icon: <IconEye size={16} aria-hidden />,
                  text: t('placing:mine.views-total', { count: total }),
                },
                {
                  key: 'reveals',
                  icon: <IconPhone size={16} aria-hidden />,
                  text: t('placing:mine.reveals-total', { count: reveals }),
                },
                // Members who saved it now (docs/product/favorites.md).
                {
                  key: 'favorites',
                  icon: <IconHeart size={16} aria-hidden />,
                  text: <span data-testid="ad-favorites">{t('placing:mine.favorites', { count: ad.favorites })}</span>,
                },
              ]}
            />
          </Text>
          {/* Bars for the eye; the table below carries the same numbers for screen readers. */}
          <Group gap={2} align="flex-end" h={96} wrap="nowrap" aria-hidden>
            {ad.views_per_day.map((v) => (
              <Tooltip key={v.day} label={`${day(v.day)}: ${v.views}`}>
                <div
                  style={{
                    flex: 1,
                    height: `${Math.max(2, (v.views / max) * 96)}px`,
                    background: 'var(--mantine-color-brand-filled)',
                    borderRadius: 2,
                    opacity: v.views ? 1 : 0.25,
                  }}
                />
              </Tooltip>
            ))}
          </Group>
          <Table className="visually-hidden" aria-label={t('placing:mine.views-title')}>
            <Table.Tbody>
              {ad.views_per_day.map((v) => (
                <Table.Tr key={v.day}>
                  <Table.Th scope="row">{day(v.day)}</Table.Th>
                  <Table.Td>{t('page.views', { count: v.views })}</Table.Td>
                  <Table.Td>{t('placing:mine.reveals', { count: v.phone_reveals })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
      <Card withBorder radius="lg">
        <Title order={2} size="h4" mb="xs">
          {t('placing:mine.history')}
        </Title>
        <Table>
          <Table.Tbody>
            {ad.history.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>{when(h.at)}</Table.Td>
                <Table.Td>
                  <MetaLine
                    items={[
                      { key: 'status', text: t(`status.${h.to}`) },
                      ...(h.by_staff ? [{ key: 'staff', text: t('placing:mine.by-staff') }] : []),
                      ...(h.reason
                        ? [{ key: 'reason', text: t('page.reason', { reason: reasonLabel(h.reason) }) }]
                        : []),
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
