import { Alert, Anchor, Badge, Button, Card, Group, Image, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconEye, IconHeart, IconPhone, IconPhoto } from '@tabler/icons-react';
import { data, Form, Link, useLocation, useNavigate } from 'react-router';
import { adPath, StatusBadge, usePrice, useReasonLabel } from '~/components/ads/ad-parts.tsx';
import { OwnerAdActions } from '~/components/ads/owner-actions.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { FormError } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { type FlashCode, redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { isOwnerTab, OWNER_TABS, type OwnerTab } from '~/lib/owner-tabs.ts';
import { db, localeOf, notFound, requestInfo, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { CONFIRMED_MOVES, ownAdMoveSchema } from '~/lib/validation/ads.ts';
import { withdrawAdChange } from '../../../server/domain/ads/changes.ts';
import { moveAd } from '../../../server/domain/ads/status.ts';
import { findOwnAd, listOwnAds, ownAdCounts } from '../../../server/domain/owner-ads.ts';
import type { Route } from './+types/posts';
import classes from './profile.module.css';

// `/profile/posts` (docs/product/ads.md): the member's own ads by status, with their numbers and actions.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const t = tFor(request);
  const requested = new URL(request.url).searchParams.get('status');
  const tab: OwnerTab = isOwnerTab(requested) ? requested : 'active';
  // Right after placing an ad (app/routes/ads/place-ad.tsx): its confirmation, when it is theirs.
  const placedId = parseId(new URL(request.url).searchParams.get('placed'));
  const [counts, ads, placedAd] = await Promise.all([
    ownAdCounts(db(context), user.id),
    listOwnAds(db(context), user.id, tab),
    placedId === null ? null : findOwnAd(db(context), user.id, placedId),
  ]);
  const placed = placedAd ? { status: placedAd.status, href: adPath(placedAd) } : null;
  return { tab, counts, ads, placed, meta: { title: t('placing:mine.title'), noindex: true } };
}

const DONE: Record<'mark-sold' | 'delete' | 'withdraw-change', FlashCode> = {
  'mark-sold': 'ad-sold',
  delete: 'ad-deleted',
  'withdraw-change': 'change-withdrawn',
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const actor = { id: user.id, ip: requestInfo(context).ip, userAgent: request.headers.get('user-agent') ?? '' };
  // Someone else's ad is the domain's NotFound: the same 404 as a missing one.
  return formAction(
    await request.formData(),
    ownAdMoveSchema,
    async ({ id, intent, confirmed }) => {
      if ((CONFIRMED_MOVES as readonly string[]).includes(intent) && !confirmed) {
        // Without the confirmation (a form posted without JavaScript) nothing changes: the page
        // asks first, with a form that confirms.
        const ad = await findOwnAd(db(context), user.id, id);
        if (!ad) throw notFound(request);
        return data({ confirm: { id, intent: intent as (typeof CONFIRMED_MOVES)[number], title: ad.title } });
      }
      if (intent === 'withdraw-change') await withdrawAdChange(db(context), actor, id);
      else await moveAd(db(context), actor, id, intent, { owner: user.id });
      const tab = new URL(request.url).searchParams.get('status');
      const query = isOwnerTab(tab) ? `?${new URLSearchParams({ status: tab })}` : '';
      return redirectWithFlash(`${localizePath('/profile/posts', localeOf(request))}${query}`, DONE[intent]);
    },
    { invalid: 'bad-request' },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function MyAdsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const reasonLabel = useReasonLabel();
  const { to, locale } = useLocale();
  const price = usePrice();
  const navigate = useNavigate();
  const { tab, counts, ads, placed } = loaderData;
  const confirm = actionData && 'confirm' in actionData ? actionData.confirm : null;
  const date = (iso: string | null) => (iso ? dates(locale).date(iso) : '');
  const tabHref = (name: OwnerTab) =>
    name === 'active' ? to('/profile/posts') : `${to('/profile/posts')}?status=${name}`;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>{t('placing:mine.title')}</Title>
        <Button component={Link} to={to('/place-your-ad')} radius="xl">
          {t('common:place-your-ad')}
        </Button>
      </Group>
      {confirm ? <ConfirmMove {...confirm} /> : null}
      {placed ? (
        <Alert
          color="brand"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          title={t('placing:place.placed-title')}
        >
          <Stack gap="xs">
            <Text>
              {placed.status === 'published' ? t('placing:place.placed-published') : t('placing:place.placed-pending')}
            </Text>
            <Group gap="md">
              <Anchor component={Link} to={to(placed.href)} c="inherit" underline="always" fw={600} py={10}>
                {t('placing:place.see-ad')}
              </Anchor>
              <Anchor component={Link} to={to('/place-your-ad')} c="inherit" underline="always" fw={600} py={10}>
                {t('placing:place.another')}
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : undefined} />
      <Tabs value={tab} onChange={(value) => value && navigate(tabHref(value as OwnerTab))} keepMounted={false}>
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
          {(Object.keys(OWNER_TABS) as OwnerTab[]).map((name) => (
            <Tabs.Tab
              key={name}
              value={name}
              className={classes.tab}
              component={Link as never}
              {...({ to: tabHref(name) } as object)}
              rightSection={<span className={classes.tabCount}>{numberFormat(locale).format(counts[name])}</span>}
            >
              {t(`placing:mine.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {ads.length === 0 ? (
        <EmptyState
          icon={<IconPhoto size={28} aria-hidden />}
          title={t('placing:mine.empty')}
          description={t('placing:mine.empty-hint')}
          action={{ label: t('common:place-your-ad'), to: to('/place-your-ad') }}
        />
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {ads.map((ad) => {
            const own = to(`/profile/posts/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`);
            return (
              <li key={ad.id}>
                <Card withBorder radius="lg" padding="sm">
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    {ad.photo ? (
                      <Image src={ad.photo.thumb} alt="" w={96} h={72} radius="sm" fit="cover" />
                    ) : (
                      <Group
                        w={96}
                        h={72}
                        justify="center"
                        bg="var(--mantine-color-default-hover)"
                        style={{ borderRadius: 6, flexShrink: 0 }}
                      >
                        <IconPhoto aria-hidden color="var(--mantine-color-dimmed)" />
                      </Group>
                    )}
                    <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <Text component={Link} to={own} fw={600} dir="auto" truncate="end">
                          {ad.title}
                        </Text>
                        <StatusBadge status={ad.status} />
                      </Group>
                      {ad.pending_change ? (
                        <Badge variant="light" color="yellow" radius="sm" tt="none" style={{ alignSelf: 'flex-start' }}>
                          {t('placing:mine.change-pending')}
                        </Badge>
                      ) : null}
                      <Text size="sm" fw={600} c="brand">
                        {price(ad)}
                      </Text>
                      <Group gap="md" c="dimmed">
                        <Group gap={4}>
                          <IconEye size={14} aria-hidden />
                          <Text size="xs">{t('page.views', { count: ad.views })}</Text>
                        </Group>
                        <Group gap={4}>
                          <IconHeart size={14} aria-hidden />
                          <Text size="xs">{t('placing:mine.favorites', { count: ad.favorites })}</Text>
                        </Group>
                        <Group gap={4}>
                          <IconPhone size={14} aria-hidden />
                          <Text size="xs">{t('placing:mine.reveals', { count: ad.phone_reveals })}</Text>
                        </Group>
                        {ad.expires_at && ad.status === 'published' ? (
                          <Text size="xs">{t('placing:mine.expires', { date: date(ad.expires_at) })}</Text>
                        ) : null}
                      </Group>
                      {ad.status === 'rejected' && ad.rejection_reason ? (
                        <Text size="sm" c="red">
                          {t('page.reason', { reason: reasonLabel(ad.rejection_reason) })}
                        </Text>
                      ) : null}
                      <Group mt={4}>
                        <OwnerAdActions ad={ad} inList />
                      </Group>
                    </Stack>
                  </Group>
                </Card>
              </li>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The confirmation step of marking sold or deleting when the form was posted without JavaScript
 * (with it, the owner's actions ask in a dialog): the same post again, confirmed, or back.
 */
function ConfirmMove({ id, intent, title }: { id: number; intent: 'mark-sold' | 'delete'; title: string }) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { to } = useLocale();
  // Back to the tab the member was on.
  const { search } = useLocation();
  return (
    <Alert color={intent === 'delete' ? 'red' : 'brand'} role="alert" title={t(`placing:mine.confirm.${intent}-title`)}>
      <Stack gap="sm">
        <Text dir="auto" fw={600}>
          {title}
        </Text>
        <Text size="sm">{t(`placing:mine.confirm.${intent}-body`)}</Text>
        <Group gap="sm">
          <Form method="post">
            <input type="hidden" name="id" value={id} />
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="confirmed" value="1" />
            <Button type="submit" color={intent === 'delete' ? 'red' : 'brand'} radius="xl" mih={44}>
              {t(`placing:mine.confirm.${intent}`)}
            </Button>
          </Form>
          <Button component={Link} to={`${to('/profile/posts')}${search}`} variant="default" radius="xl" mih={44}>
            {t('placing:mine.confirm.cancel')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
