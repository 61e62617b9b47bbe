import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBell,
  IconBellOff,
  IconCircleCheck,
  IconCircleX,
  IconClockHour4,
  IconHeart,
  IconHourglassEmpty,
  IconSearch,
  IconTrendingDown,
} from '@tabler/icons-react';
import { data, Form, Link, useNavigation, useRevalidator, useRouteLoaderData, useSubmit } from 'react-router';
import { z } from 'zod';
import { usePrice, useReasonLabel } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { KeysetPager } from '~/components/keyset-pager.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { NOTIFICATION_CREATED, NOTIFICATION_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ID_PARAMETER } from '~/lib/validation/id.ts';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '../../../server/domain/notifications.ts';
import type { Route } from './+types/notifications';
import classes from './notifications.module.css';

// `/notifications` (docs/product/accounts-and-roles.md, "Notifications"): the member's
// notifications, newest first, 20 a page (keyset: `?before=<id>`); unread ones stand out; each links
// to its subject; one or all are marked read by forms that work without JavaScript.

export const middleware = guards('auth');

const DAY = 24 * 60 * 60 * 1000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const param = new URL(request.url).searchParams.get('before');
  const before = param === null ? null : parseId(param);
  if (param !== null && before === null) throw notFound(request);
  const page = await listNotifications(db(context), user.id, { before });
  const locale = localeOf(request);
  const now = new Date();
  const items = page.items.map((n) => {
    const expires = typeof n.data.expires_at === 'string' ? Date.parse(n.data.expires_at) : Number.NaN;
    return {
      id: n.id,
      type: n.type,
      read: n.read,
      created_at: n.created_at,
      subject: n.subject,
      // A package's news names the package in the page's language, and the company a company's
      // package is for.
      title:
        typeof n.data.title === 'string'
          ? n.data.title
          : n.type === 'package-expiring' && typeof n.data.name_en === 'string' && typeof n.data.name_ar === 'string'
            ? [n.data[`name_${locale}`], n.data[`company_${locale}`]].filter((x) => typeof x === 'string').join(' — ')
            : null,
      reason: typeof n.data.reason === 'string' ? n.data.reason : null,
      change: n.data.change === true,
      // A report the member sent, handled by staff (server/domain/admin/reports.ts).
      dismissed: n.data.outcome === 'dismissed',
      // A saved search's news: the searches an ad matched (instant), or one search's count (digest).
      searches: Array.isArray(n.data.searches)
        ? (n.data.searches as { name?: unknown }[]).map((x) => String(x.name ?? '')).filter(Boolean)
        : typeof n.data.name === 'string'
          ? [n.data.name]
          : [],
      count: typeof n.data.count === 'number' ? n.data.count : null,
      // A saved ad's price drop (docs/product/favorites.md): the prices then and now.
      priceDrop:
        typeof n.data.old_price === 'number' &&
        typeof n.data.new_price === 'number' &&
        typeof n.data.currency === 'string'
          ? { was: n.data.old_price, now: n.data.new_price, currency: n.data.currency }
          : null,
      // Whole days left (an ad-expiring reminder), counted now, so an old reminder does not say "3 days".
      daysLeft: Number.isNaN(expires) ? null : Math.ceil((expires - now.getTime()) / DAY),
    };
  });
  const t = tFor(request);
  return data(
    {
      items,
      next: page.next,
      before,
      now: now.toISOString(),
      meta: { title: t('notifications:title'), description: t('notifications:description'), noindex: true },
    },
    { headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

const notificationAction = z.discriminatedUnion('intent', [
  // `js`: marked while its link is followed (a fetcher): answer data, the browser is going elsewhere.
  z.object({ intent: z.literal('read'), id: ID_PARAMETER, js: z.literal('1').optional() }),
  z.object({ intent: z.literal('read-all') }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const here = localizePath('/notifications', localeOf(request));
  const before = parseId(url.searchParams.get('before'));
  // Someone else's notification is the domain's NotFound: the same 404 as a missing one.
  return formAction(
    await request.formData(),
    notificationAction,
    async (value) => {
      if (value.intent === 'read-all') {
        await markAllNotificationsRead(db(context), user.id);
        return redirectWithFlash(here, 'notifications-read');
      }
      await markNotificationRead(db(context), user.id, value.id);
      if (value.js) return data({ read: value.id });
      return new Response(null, {
        status: 302,
        headers: { Location: before === null ? here : `${here}?${new URLSearchParams({ before: String(before) })}` },
      });
    },
    { invalid: 'bad-request' },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

type Item = Route.ComponentProps['loaderData']['items'][number];

function KindIcon({ item }: { item: Item }) {
  const icon =
    item.type === 'ad-approved' ? (
      <IconCircleCheck size={20} aria-hidden />
    ) : item.type === 'ad-rejected' ? (
      <IconCircleX size={20} aria-hidden />
    ) : item.type === 'ad-expiring' || item.type === 'package-expiring' ? (
      <IconClockHour4 size={20} aria-hidden />
    ) : item.type === 'ad-expired' ? (
      <IconHourglassEmpty size={20} aria-hidden />
    ) : item.type === 'saved-search-match' ? (
      <IconSearch size={20} aria-hidden />
    ) : item.type === 'favorite-price-drop' ? (
      <IconTrendingDown size={20} aria-hidden />
    ) : item.type === 'favorite-sold' ? (
      <IconHeart size={20} aria-hidden />
    ) : (
      <IconBell size={20} aria-hidden />
    );
  const color =
    item.type === 'ad-rejected'
      ? 'red'
      : item.type.startsWith('ad-expir') || item.type === 'package-expiring'
        ? 'yellow'
        : item.type === 'favorite-sold'
          ? 'blue'
          : 'brand';
  return (
    <ThemeIcon className={classes.icon} size={40} radius="xl" variant="light" color={color}>
      {icon}
    </ThemeIcon>
  );
}

/** The notification's words: what happened (its kind), and a hint of what to do. */
function useWords() {
  const { t } = useT('notifications');
  return (item: Item): { heading: string; hint: string | null } => {
    switch (item.type) {
      case 'ad-approved':
        return { heading: t(item.change ? 'kinds.ad-approved-change' : 'kinds.ad-approved'), hint: null };
      case 'ad-rejected':
        return {
          heading: t(item.change ? 'kinds.ad-rejected-change' : 'kinds.ad-rejected'),
          hint: item.change ? null : t('hints.ad-rejected'),
        };
      case 'ad-expiring':
        return {
          heading:
            item.daysLeft !== null && item.daysLeft > 0
              ? t('kinds.ad-expiring', { count: item.daysLeft })
              : t('kinds.ad-expiring-past'),
          hint: t('hints.ad-expiring'),
        };
      case 'ad-expired':
        return { heading: t('kinds.ad-expired'), hint: t('hints.ad-expired') };
      case 'package-expiring':
        return {
          heading:
            item.daysLeft !== null && item.daysLeft > 0
              ? t('kinds.package-expiring', { count: item.daysLeft })
              : t('kinds.package-expiring-past'),
          hint: t('hints.package-expiring'),
        };
      case 'saved-search-match':
        return item.count !== null
          ? { heading: t('kinds.saved-search-digest', { count: item.count }), hint: null }
          : { heading: t('kinds.saved-search-match'), hint: null };
      case 'favorite-price-drop':
        return { heading: t('kinds.favorite-price-drop'), hint: null };
      case 'favorite-sold':
        return { heading: t('kinds.favorite-sold'), hint: null };
      case 'report-resolved':
        return { heading: t(item.dismissed ? 'kinds.report-dismissed' : 'kinds.report-resolved'), hint: null };
      default:
        return { heading: t('kinds.other'), hint: null };
    }
  };
}

function NotificationRow({ item, now, action }: { item: Item; now: string; action: string }) {
  const { t } = useT('notifications');
  const { to, locale } = useLocale();
  const reasonLabel = useReasonLabel();
  const price = usePrice();
  const words = useWords()(item);
  const submit = useSubmit();
  const unread = !item.read;
  const content = (
    <>
      <Text component="span" className={classes.heading}>
        {words.heading}
      </Text>
      {item.title ? (
        // The member's own words keep their direction; the line follows the page's.
        <span className={classes.subject}>
          <bdi dir="auto">{item.title}</bdi>
        </span>
      ) : null}
    </>
  );
  return (
    <li className={classes.item} data-unread={unread || undefined} data-testid="notification">
      <KindIcon item={item} />
      <div className={classes.body}>
        {item.subject ? (
          <Link
            to={to(item.subject)}
            className={classes.link}
            // Following the link reads it: marked in the background (without JavaScript, the button below).
            onClick={() => {
              if (unread) {
                submit({ intent: 'read', id: String(item.id), js: '1' }, { method: 'post', action, navigate: false });
              }
            }}
          >
            {content}
          </Link>
        ) : (
          <div className={classes.link}>{content}</div>
        )}
        {item.searches.length > 0 ? (
          <Text size="sm">
            {t('search')}
            <bdi dir="auto">{item.searches.join(locale === 'ar' ? '، ' : ', ')}</bdi>
          </Text>
        ) : null}
        {item.priceDrop ? (
          <Text size="sm" fw={600} c="brand" data-testid="price-drop">
            {t('price-drop', {
              now: price({ price: item.priceDrop.now, currency: item.priceDrop.currency, price_type: 'fixed' }),
              was: price({ price: item.priceDrop.was, currency: item.priceDrop.currency, price_type: 'fixed' }),
            })}
          </Text>
        ) : null}
        {item.reason ? (
          <Text size="sm" dir="auto">
            {t('reason', { reason: reasonLabel(item.reason) })}
          </Text>
        ) : null}
        {words.hint && item.subject ? <Text size="sm">{words.hint}</Text> : null}
        {!item.subject && item.title ? (
          <Text size="sm" c="dimmed">
            {t('subject-gone')}
          </Text>
        ) : null}
        <div className={classes.meta}>
          <RelativeTime iso={item.created_at} now={now} />
          {unread ? <span>{t('unread')}</span> : null}
        </div>
        {unread ? (
          <Form method="post" action={action} className={classes.markRead}>
            <input type="hidden" name="intent" value="read" />
            <input type="hidden" name="id" value={item.id} />
            <Button type="submit" variant="subtle" size="compact-sm" h={44} px="xs">
              {t('mark-read')}
              <span className="visually-hidden">: {words.heading}</span>
            </Button>
          </Form>
        ) : null}
      </div>
      {unread ? <span className={classes.dot} aria-hidden /> : null}
    </li>
  );
}

export default function NotificationsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('notifications');
  const { to } = useLocale();
  const { items, next, before, now } = loaderData;
  const paged = before !== null;
  const root = useRouteLoaderData('root') as { unread: number | null } | undefined;
  const unread = root?.unread ?? 0;
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // A notification arrives, or some are read in another tab: show the list as it is now. Not while
  // this tab submits or navigates: its own loaders bring the list, and a revalidation sent meanwhile
  // would read (and clear) the action's flash message before them (docs/product/site.md, "Feedback").
  const refresh = () => {
    if (revalidator.state === 'idle' && navigation.state === 'idle') void revalidator.revalidate();
  };
  useUserEvent(NOTIFICATION_CREATED, refresh);
  useUserEvent(NOTIFICATION_READ, refresh);
  const base = to('/notifications');
  // A notification marked read without JavaScript comes back to this same page.
  const action = paged ? `${base}?before=${before}` : base;
  return (
    <Stack gap="lg" maw={760} mx="auto" w="100%">
      <Group justify="space-between" align="center" gap="sm">
        <Stack gap={2}>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed" size="sm" role="status">
            {unread > 0 ? t('unread-summary', { count: unread }) : t('all-read')}
          </Text>
        </Stack>
        {unread > 0 ? (
          <Form method="post" action={base}>
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="light" radius="xl" h={44}>
              {t('mark-all-read')}
            </Button>
          </Form>
        ) : null}
      </Group>
      {items.length === 0 && !paged ? (
        <EmptyState icon={<IconBellOff size={28} aria-hidden />} title={t('empty')} description={t('empty-hint')} />
      ) : items.length === 0 ? (
        <Text>{t('no-older')}</Text>
      ) : (
        <ul className={classes.list} aria-label={t('list')}>
          {items.map((item) => (
            <NotificationRow key={item.id} item={item} now={now} action={action} />
          ))}
        </ul>
      )}
      <KeysetPager base={base} next={next} paged={paged} newest={t('newest')} older={t('older')} />
    </Stack>
  );
}
