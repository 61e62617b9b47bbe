import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Form, Link } from 'react-router';
import { z } from 'zod';
import { StatusBadge, usePrice } from '~/components/ads/ad-parts.tsx';
import { Breadcrumbs } from '~/components/catalog/breadcrumbs.tsx';
import { FormError, useFormErrorText } from '~/components/form-parts.tsx';
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
import { repostAd } from '../../../server/domain/ads/status.ts';
import { ownAd, repostQuote } from '../../../server/domain/owner-ads.ts';
import type { Route } from './+types/repost-ad';
import { ensureCanonical, ownAdId, ownAdPath } from './own-ad.server.ts';

// `/profile/posts/{taxonomy}/{category}/{ad}/repost` (docs/product/ads.md): what a repost will
// do — renew an expired ad against the allowance, or bump a live one once per cool-down (sooner with
// one of the member's package reposts) — and a
// button to confirm it; a refusal says why. Someone else's ad is a 404.

export const middleware = guards('auth');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const ad = await ownAd(db(context), user.id, ownAdId(request, params));
  ensureCanonical(request, params, ad, '/repost');
  const quote = await repostQuote(db(context), user.id, ad);
  return {
    ad: { ...ad, href: ownAdPath(ad) },
    quote,
    meta: { title: tFor(request)('placing:repost.title'), noindex: true },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const ad = await ownAd(db(context), user.id, ownAdId(request, params));
  const info = requestInfo(context);
  return formAction(await request.formData(), z.object({}), async () => {
    const done = await repostAd(db(context), { id: user.id, ip: info.ip, userAgent: info.userAgent }, ad.id);
    return redirectWithFlash(encodeURI(localizePath(ownAdPath(ad), localeOf(request))), done);
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function RepostAdPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to, locale } = useLocale();
  const price = usePrice();
  const refusalText = useFormErrorText();
  const { ad, quote } = loaderData;
  const { date } = dates(locale);
  return (
    <Stack gap="lg" maw={640}>
      <Breadcrumbs
        items={[
          { label: t('placing:mine.title'), href: to('/profile/posts') },
          { label: ad.title, href: to(ad.href) },
          { label: t('placing:repost.crumb') },
        ]}
      />
      <Title order={1}>
        {quote.kind === 'renew' ? t('placing:repost.renew-title') : t('placing:repost.bump-title')}
      </Title>
      <Card withBorder radius="lg">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} dir="auto" truncate="end">
              {ad.title}
            </Text>
            <Text size="sm" c="brand" fw={600}>
              {price(ad)}
            </Text>
          </Stack>
          <StatusBadge status={ad.status} />
        </Group>
      </Card>
      {quote.kind === 'renew' ? (
        <Stack gap="xs">
          <Text>{t('placing:repost.renew-what', { count: quote.lifetimeDays })}</Text>
          <Text>{t('placing:repost.renew-cost', { count: quote.limit, active: quote.active })}</Text>
        </Stack>
      ) : quote.kind === 'bump' ? (
        <Stack gap="xs">
          <Text>{t('placing:repost.bump-what', { count: quote.cooldownDays })}</Text>
          {quote.lastBumpAt ? (
            <Text c="dimmed">{t('placing:repost.last-bump', { date: date(quote.lastBumpAt) })}</Text>
          ) : null}
          {quote.usesRepost ? (
            <Text fw={600} data-testid="uses-repost">
              {t('placing:repost.uses-repost', { count: quote.reposts })}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {quote.refusal ? (
        <Alert color="yellow" role="status">
          {refusalText(quote.refusal)}
          {quote.nextBumpAt ? ` ${t('placing:repost.next-bump', { date: date(quote.nextBumpAt) })}` : ''}
        </Alert>
      ) : null}
      <FormError code={actionData?.formError} />
      <Group>
        {quote.kind && !quote.refusal ? (
          <Form method="post">
            <Button type="submit" radius="xl">
              {quote.kind === 'renew' ? t('page.renew') : t('page.bump')}
            </Button>
          </Form>
        ) : null}
        <Anchor component={Link} to={to(ad.href)}>
          {t('placing:repost.back')}
        </Anchor>
      </Group>
    </Stack>
  );
}
