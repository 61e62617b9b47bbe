import { Anchor, Card, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, redirect } from 'react-router';
import { StatusBadge, usePrice } from '~/components/ads/ad-parts.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { localeTags, localizePath } from '~/i18n/config.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, notFound, orNotFound, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { SLUG_PATTERN } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ownAdDetail } from '../../../server/domain/owner-ads.ts';
import type { Route } from './+types/own-ad';

// `/profile/posts/{taxonomy}/{category}/{ad}` (PRODUCT.md §3): one of the member's ads with its
// status history and views per day. Someone else's ad is a 404.

export const middleware = guards('auth');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const match = /^(?:(.*)-)?(\d{1,12})$/.exec(params.ad);
  if (!match || !SLUG_PATTERN.test(params.taxonomy) || !SLUG_PATTERN.test(params.category)) throw notFound(request);
  const ad = await orNotFound(request, ownAdDetail(db(context), user.id, Number(match[2])));
  const canonical = `/profile/posts/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`;
  if (params.taxonomy !== ad.taxonomy_slug || params.category !== ad.category_slug || (match[1] ?? '') !== ad.slug) {
    throw redirect(encodeURI(localizePath(canonical, localeOf(request))), 301);
  }
  return { ad, meta: { title: tFor(request)('ads:mine.detail-title', { title: ad.title }), noindex: true } };
}

export const meta: Route.MetaFunction = routeMeta;

export default function OwnAdPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('ads');
  const { to, locale } = useLocale();
  const price = usePrice();
  const { ad } = loaderData;
  const tag = localeTags[locale];
  const when = (iso: string) =>
    new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const day = (d: string) =>
    new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short' }).format(new Date(`${d}T00:00:00Z`));
  const max = Math.max(1, ...ad.views_per_day.map((v) => v.views));
  const total = ad.views_per_day.reduce((n, v) => n + v.views, 0);
  return (
    <Stack gap="lg">
      <Breadcrumbs items={[{ label: t('mine.title'), href: to('/profile/posts') }, { label: ad.title }]} />
      <Group justify="space-between" align="flex-start">
        <Title order={1} size="h2" dir="auto">
          {ad.title}
        </Title>
        <StatusBadge status={ad.status} />
      </Group>
      <Text fw={700} c="brand">
        {price(ad)}
      </Text>
      {['published', 'sold', 'expired'].includes(ad.status) || ad.status === 'pending' || ad.status === 'rejected' ? (
        <Anchor component={Link} to={to(`/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`)}>
          {t('mine.open-page')}
        </Anchor>
      ) : null}
      <Card withBorder radius="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('mine.views-title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('mine.views-total', { count: total })}
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
          <Table className="visually-hidden" aria-label={t('mine.views-title')}>
            <Table.Tbody>
              {ad.views_per_day.map((v) => (
                <Table.Tr key={v.day}>
                  <Table.Th scope="row">{day(v.day)}</Table.Th>
                  <Table.Td>{v.views}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
      <Card withBorder radius="lg">
        <Title order={2} size="h4" mb="xs">
          {t('mine.history')}
        </Title>
        <Table>
          <Table.Tbody>
            {ad.history.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>{when(h.at)}</Table.Td>
                <Table.Td>
                  {t(`status.${h.to}`)}
                  {h.by_staff ? ` · ${t('mine.by-staff')}` : ''}
                  {h.reason ? ` · ${t('page.reason', { reason: h.reason })}` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
