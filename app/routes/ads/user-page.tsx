import { Avatar, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconDiscountCheck, IconListSearch, IconMapPin } from '@tabler/icons-react';
import { data } from 'react-router';
import { AdCards, BadgeChips, CompanyMark, MetaLine, Pager } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { dates } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { markFavorited } from '../../../server/domain/favorites.ts';
import { listUserAds, loadPublicProfile } from '../../../server/domain/member-page.ts';
import type { Route } from './+types/user-page';

// `/users/{id}` (docs/product/site.md): a member's public profile and published ads. Unknown or banned → 404.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(params.id)) throw notFound(request);
  const profile = await loadPublicProfile(db(context), params.id);
  const pageParam = new URL(request.url).searchParams.get('page');
  const page = pageParam === null ? 1 : /^[1-9]\d{0,4}$/.test(pageParam) ? Number(pageParam) : 0;
  if (page < 1) throw notFound(request);
  const listing = await listUserAds(db(context), profile.id, page);
  if (page > listing.pages) throw notFound(request);
  const user = await currentUser(request, context);
  // A member's hearts show what they saved (their pages are never shared).
  listing.ads = await markFavorited(db(context), user?.id, listing.ads);
  const t = tFor(request);
  const locale = localeOf(request);
  const signedIn = !!user;
  return data(
    {
      profile,
      listing: { ...listing, page },
      meta: {
        title: profile.name,
        description: t('ads:user.description', {
          name: profile.name,
          city: profile.city ? localName(locale, profile.city) : t('ads:user.libya'),
        }),
      },
    },
    {
      headers: pageCacheHeaders(signedIn, [
        `user:${profile.id}`,
        ...(profile.company ? [`company:${profile.company.id}`] : []),
      ]),
    },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function UserPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('ads');
  const { name, locale, to } = useLocale();
  const { profile, listing } = loaderData;
  const since = dates(locale).month(profile.member_since);
  return (
    <Stack gap="lg">
      <Group gap="md" wrap="nowrap">
        <Avatar
          src={profile.image ?? undefined}
          alt=""
          name={profile.name}
          size={72}
          radius="xl"
          color="brand"
          variant="filled"
        />
        <Stack gap={4} miw={0}>
          <Title order={1} size="h2">
            <bdi>{profile.name}</bdi>
          </Title>
          <Text size="sm" c="dimmed">
            <MetaLine
              items={[
                { key: 'since', text: t('page.member-since', { date: since }) },
                ...(profile.city
                  ? [{ key: 'city', icon: <IconMapPin size={14} aria-hidden />, text: name(profile.city) }]
                  : []),
              ]}
            />
          </Text>
          <Group gap="xs">
            {profile.phone_verified ? (
              <Badge variant="light" leftSection={<IconDiscountCheck size={14} aria-hidden />}>
                {t('user.phone-verified')}
              </Badge>
            ) : null}
            {profile.email_verified ? (
              <Badge variant="light" leftSection={<IconDiscountCheck size={14} aria-hidden />}>
                {t('user.email-verified')}
              </Badge>
            ) : null}
          </Group>
          <BadgeChips badges={profile.badges} label={t('badges.member')} />
          {profile.company ? <CompanyMark company={profile.company} link size={24} /> : null}
        </Stack>
      </Group>
      {profile.bio ? (
        <Text dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
          {profile.bio}
        </Text>
      ) : null}
      <Title order={2} size="h3">
        {t('user.ads', { count: listing.total })}
      </Title>
      {listing.total ? (
        <>
          <AdCards ads={listing.ads} label={t('user.ads', { count: listing.total })} />
          <Pager page={listing.page} pages={listing.pages} />
        </>
      ) : (
        <EmptyState
          icon={<IconListSearch size={28} aria-hidden />}
          title={t('user.no-ads')}
          description={t('user.no-ads-hint')}
          action={{ label: t('common:nav.home'), to: to('/') }}
        />
      )}
    </Stack>
  );
}
