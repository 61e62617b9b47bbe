import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { data, Link, useSearchParams } from 'react-router';
import { AdCards } from '~/components/ads/ad-parts.tsx';
import { BannerSlot } from '~/components/banners/banner.tsx';
import { HeroBanners } from '~/components/banners/hero-banners.tsx';
import { TileGrid, useAdCountCaption } from '~/components/catalog/category-grid.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { SearchBox } from '~/components/layouts/site-header.tsx';
import { useT } from '~/i18n/use-t.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { EMPTY_QUERY } from '~/lib/search-query.ts';
import { currentUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { type AdCard, cardsByIds } from '../../../server/domain/ads/cards.ts';
import { bannerTag } from '../../../server/domain/banners/changes.ts';
import { liveBanners } from '../../../server/domain/banners/public.ts';
import { listCityNames, listTaxonomies } from '../../../server/domain/catalog.ts';
import { markFavorited } from '../../../server/domain/favorites.ts';
import { search } from '../../../server/domain/search/service.ts';
import type { Route } from './+types/home';

/** Ads in each of the featured and latest sections (two rows of four on wide screens). */
const HOME_ADS = 8;
/** How many cities the home page links to; the rest are one tap away in the search filters. */
const POPULAR_CITIES = 12;

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const { database } = services(context);
  const locale = localeOf(request);
  const [taxonomies, cities, featured, latest, hero, inline] = await Promise.all([
    listTaxonomies(db(context)),
    listCityNames(db(context), POPULAR_CITIES),
    search(database, EMPTY_QUERY, { pageSize: HOME_ADS, facets: false, featured: true }),
    // Its facets are the taxonomies' counts of published ads, shown on the tiles.
    search(database, EMPTY_QUERY, { pageSize: HOME_ADS }),
    // Home banners ignore targeting (the page has no taxonomy, category or city).
    liveBanners(db(context), 'home-hero', {}, locale),
    liveBanners(db(context), 'home-inline', {}, locale),
  ]);
  const counts = Object.fromEntries(latest.facets.categories.map((f) => [f.slug, f.count]));
  const user = await currentUser(request, context);
  // A member's hearts show what they saved (their pages are never shared).
  const [featuredAds, latestAds] = await Promise.all([
    cardsByIds(database.db, featured.ids).then((cards) => markFavorited(database.db, user?.id, cards)),
    cardsByIds(database.db, latest.ids).then((cards) => markFavorited(database.db, user?.id, cards)),
  ]);
  // Shows every taxonomy's ad counts: a change of an ad anywhere renews the shared copy.
  const signedIn = !!user;
  return data(
    {
      taxonomies: taxonomies.map((x) => ({ ...x, ads: counts[x.slug] ?? 0 })),
      cities,
      featured: featuredAds,
      latest: latestAds,
      banners: { hero, inline },
      now: new Date().toISOString(),
      meta: { title: t('home:title'), description: t('home:description') },
    },
    {
      headers: pageCacheHeaders(
        signedIn,
        // The latest ads come from everywhere: any ad's change renews it; so does a change of its
        // banners. A banner's schedule starting or ending shows within the cache's minute.
        ['ads', ...taxonomies.map((x) => `taxonomy:${x.id}`), bannerTag('home-hero'), bannerTag('home-inline')],
      ),
    },
  );
}

export const headers = pageHeaders;

/** The hero holds the page's search box: the layout leaves out the header's phone search row. */
export const handle = { ownSearch: true };

export const meta: Route.MetaFunction = routeMeta;

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { t } = useT('home');
  const { to, name } = useLocale();
  const caption = useAdCountCaption();
  const origin = matches[0]?.loaderData?.origin ?? '';
  const [params] = useSearchParams();
  return (
    <Stack gap="xl">
      {params.get('account-deleted') === '1' ? (
        <Alert color="brand" role="status">
          {t('common:account.deleted')}
        </Alert>
      ) : null}
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: t('common:site-name'),
          url: origin + to('/'),
          logo: `${origin}/images/logo-only.png`,
        }}
      />
      <HeroBanners banners={loaderData.banners.hero} />
      <Paper radius="lg" p={{ base: 'lg', sm: 'xl' }} bg="var(--mantine-color-brand-light)">
        <Stack gap="sm">
          <Title order={1} size="h2">
            {t('hero.title')}
          </Title>
          <Text c="dimmed">{t('hero.subtitle')}</Text>
          <SearchBox size="lg" id="home-search" />
        </Stack>
      </Paper>

      <section aria-labelledby="taxonomies-heading">
        <Title order={2} size="h3" mb="md" id="taxonomies-heading">
          {t('browse-categories')}
        </Title>
        <TileGrid
          label={t('browse-categories')}
          tiles={loaderData.taxonomies.map((x) => ({
            ...x,
            href: to(`/${x.slug}`),
            caption: caption(x.ads),
          }))}
        />
      </section>

      <AdSection id="featured" title={t('featured-ads')} ads={loaderData.featured} now={loaderData.now} />
      <BannerSlot banners={loaderData.banners.inline} label={t('common:banner.label')} lazy />
      <AdSection
        id="latest"
        title={t('latest-ads')}
        ads={loaderData.latest}
        now={loaderData.now}
        more={
          <Anchor component={Link} to={to('/posts')}>
            {t('see-all')}
          </Anchor>
        }
      />

      <section aria-labelledby="cities-heading">
        <Title order={2} size="h3" mb="md" id="cities-heading">
          {t('popular-cities')}
        </Title>
        <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {loaderData.cities.map((city) => (
            <li key={city.slug}>
              <Anchor
                component={Link}
                to={`${to('/posts')}?city=${city.slug}`}
                px="md"
                py={10}
                style={{
                  display: 'inline-block',
                  borderRadius: 999,
                  border: '1px solid var(--mantine-color-default-border)',
                }}
                underline="never"
              >
                {name(city)}
              </Anchor>
            </li>
          ))}
        </Group>
      </section>
    </Stack>
  );
}

/** A titled section of ad cards (nothing without ads), with an optional link beside the title. */
function AdSection({
  id,
  title,
  ads,
  now,
  more,
}: {
  id: string;
  title: string;
  ads: AdCard[];
  now: string;
  more?: ReactNode;
}) {
  if (ads.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3" id={`${id}-heading`}>
          {title}
        </Title>
        {more}
      </Group>
      <AdCards ads={ads} label={title} now={now} />
    </section>
  );
}
