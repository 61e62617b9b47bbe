import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconHeartOff, IconPhoto } from '@tabler/icons-react';
import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { adPath, MetaLine, usePlace, usePrice } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { KeysetPager } from '~/components/keyset-pager.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { parseId } from '~/lib/ids.ts';
import { localPath } from '~/lib/local-path.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { currentUser, requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ID_PARAMETER } from '~/lib/validation/id.ts';
import { addFavorite, listFavorites, removeFavorite } from '../../../server/domain/favorites.ts';
import type { Route } from './+types/favorites';
import classes from './favorites.module.css';

// `/favorites` (docs/product/favorites.md): the member's saved ads, the most recently saved first,
// 20 a page (keyset: `?before=<favorite id>`), each with what changed since it was saved (the
// price, old → new; sold, expired, no longer on the site) and a button to remove it. Its action is
// where every heart posts without JavaScript (app/components/ads/favorite-button.tsx): save or
// remove, then back to the page the heart was on with a message (with JavaScript, hearts call the
// API instead).
//
// Guard `auth`, checked in the loader and the action rather than as route middleware: a visitor's
// heart is sent to log in with the page it was on as the way back, which the middleware (knowing
// only this URL) could not do.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const param = new URL(request.url).searchParams.get('before');
  const before = param === null ? null : parseId(param);
  if (param !== null && before === null) throw notFound(request);
  const page = await listFavorites(db(context), user.id, { before });
  const t = tFor(request);
  return data(
    {
      items: page.items,
      next: page.next,
      before,
      now: new Date().toISOString(),
      meta: { title: t('favorites:title'), description: t('favorites:description'), noindex: true },
    },
    { headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

const favoriteForm = z.object({
  intent: z.enum(['add', 'remove']),
  ad: ID_PARAMETER,
  // The page the form was on: where the browser goes back to (a local path only).
  back: z.string().max(2048).optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const locale = localeOf(request);
  const here = localizePath('/favorites', locale);
  const back = localPath(form.get('back'), here);
  const user = await currentUser(request, context);
  // A visitor's heart: log in, then back to the page it was on.
  if (!user) throw redirect(`${localizePath('/login', locale)}?redirect=${encodeURIComponent(back)}`);
  // A refused save (the ad was sold meanwhile) comes back to this page with the reason; a missing ad
  // is the page's 404.
  return formAction(
    form,
    favoriteForm,
    async ({ intent, ad }) => {
      if (intent === 'add') await addFavorite(db(context), user.id, ad);
      else await removeFavorite(db(context), user.id, ad);
      return redirectWithFlash(back, intent === 'add' ? 'favorite-added' : 'favorite-removed');
    },
    { invalid: 'bad-request' },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

type Item = Route.ComponentProps['loaderData']['items'][number];

/** What became of the ad, when it is no longer for sale: its marker's words and colour. */
function useMarker() {
  const { t } = useT('favorites');
  return (item: Item): { text: string; color: string } | null => {
    switch (item.ad.status) {
      case 'published':
        return null;
      case 'sold':
        return { text: t('markers.sold'), color: 'blue' };
      case 'expired':
        return { text: t('markers.expired'), color: 'gray' };
      case 'deleted':
        return { text: t('markers.deleted'), color: 'red' };
      default:
        return { text: t('markers.unavailable'), color: 'gray' };
    }
  };
}

function FavoriteRow({ item, now, back }: { item: Item; now: string; back: string }) {
  const { t } = useT('favorites');
  const { to } = useLocale();
  const price = usePrice();
  const place = usePlace();
  const marker = useMarker()(item);
  const href = item.public ? to(adPath(item.ad)) : null;
  const photo = item.ad.photo ? (
    <img src={item.ad.photo.thumb} alt="" loading="lazy" className={classes.photoImage} />
  ) : (
    <span className={classes.noPhoto}>
      <IconPhoto size={28} aria-hidden />
    </span>
  );
  return (
    <li className={classes.item} data-testid="favorite" data-status={item.ad.status}>
      {href ? (
        <Link to={href} className={classes.photo} tabIndex={-1} aria-hidden>
          {photo}
        </Link>
      ) : (
        <span className={classes.photo}>{photo}</span>
      )}
      <div className={classes.body}>
        {href ? (
          <Link to={href} className={classes.title} dir="auto">
            {item.ad.title}
          </Link>
        ) : (
          <span className={classes.title} dir="auto">
            {item.ad.title}
          </span>
        )}
        <div className={classes.price}>
          {item.price_changed ? (
            <>
              {/* Old → new, both in their own direction; the arrow follows the reading direction. */}
              <span className={classes.oldPrice}>
                <span className="visually-hidden">{t('price.was')} </span>
                <bdi>{price(item.saved)}</bdi>
              </span>
              <span aria-hidden className={classes.arrow}>
                →
              </span>
              <span className={classes.newPrice}>
                <span className="visually-hidden">{t('price.now')} </span>
                <bdi>{price(item.ad)}</bdi>
              </span>
            </>
          ) : (
            <span className={classes.newPrice}>
              <bdi>{price(item.ad)}</bdi>
            </span>
          )}
        </div>
        <Group gap={6}>
          {item.price_changed ? (
            <Badge
              variant="light"
              radius="sm"
              tt="none"
              color={item.price_direction === 'down' ? 'brand' : item.price_direction === 'up' ? 'orange' : 'gray'}
            >
              {t(
                item.price_direction === 'down'
                  ? 'price.dropped'
                  : item.price_direction === 'up'
                    ? 'price.raised'
                    : 'price.changed',
              )}
            </Badge>
          ) : null}
          {marker ? (
            <Badge variant="light" radius="sm" tt="none" color={marker.color}>
              {marker.text}
            </Badge>
          ) : null}
        </Group>
        <MetaLine
          className={classes.meta}
          items={[
            { key: 'place', text: place(item.ad) },
            { key: 'saved', text: <SavedWhen iso={item.saved_at} now={now} /> },
          ]}
        />
        {item.ad.status === 'deleted' ? (
          <Text size="sm" c="dimmed">
            {t('deleted-hint')}
          </Text>
        ) : null}
      </div>
      <Form method="post" action={to('/favorites')} className={classes.remove}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="ad" value={item.ad.id} />
        <input type="hidden" name="back" value={back} />
        <Button
          type="submit"
          variant="subtle"
          color="red"
          size="compact-sm"
          h={44}
          px="xs"
          aria-label={t('remove-label', { title: item.ad.title })}
        >
          {t('remove')}
        </Button>
      </Form>
    </li>
  );
}

function SavedWhen({ iso, now }: { iso: string; now: string }) {
  const { t } = useT('favorites');
  return (
    <>
      {t('saved')} <RelativeTime iso={iso} now={now} />
    </>
  );
}

export default function FavoritesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('favorites');
  // A refusal may be worded by the errors catalogue (an area: app/i18n/config.ts).
  useAreaCatalogues('errors');
  const { to } = useLocale();
  const { items, next, before, now } = loaderData;
  const paged = before !== null;
  const base = to('/favorites');
  const here = paged ? `${base}?before=${before}` : base;
  // Without JavaScript a refused heart or remove lands here: why, in words.
  const refused =
    actionData && 'result' in actionData
      ? (actionData.formError ?? actionData.result.error?.ad?.[0] ?? undefined)
      : undefined;
  return (
    <Stack gap="lg" maw={760} mx="auto" w="100%">
      <Stack gap={2}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed" size="sm">
          {t('intro')}
        </Text>
      </Stack>
      {refused ? (
        <Alert color="red" role="alert">
          {t(refused.includes('.') ? refused.replace('.', ':') : `errors:${refused}`)}
        </Alert>
      ) : null}
      {items.length === 0 && !paged ? (
        <EmptyState
          icon={<IconHeartOff size={28} aria-hidden />}
          title={t('empty')}
          description={t('empty-hint')}
          action={{ label: t('browse'), to: to('/posts') }}
        />
      ) : items.length === 0 ? (
        <Text>{t('no-older')}</Text>
      ) : (
        <ul className={classes.list} aria-label={t('list')}>
          {items.map((item) => (
            <FavoriteRow key={item.id} item={item} now={now} back={here} />
          ))}
        </ul>
      )}
      <KeysetPager base={base} next={next} paged={paged} newest={t('newest')} older={t('older')} />
    </Stack>
  );
}
