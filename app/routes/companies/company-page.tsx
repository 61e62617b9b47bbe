import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconListSearch, IconMapPin, IconPhone, IconWorld } from '@tabler/icons-react';
import { data } from 'react-router';
import { AdCards, BadgeChips, MetaLine, Pager, SpriteIcon } from '~/components/ads/ad-parts.tsx';
import { EmptyState } from '~/components/empty-state.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, services, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { badgesOfCompanies } from '../../../server/domain/badges.ts';
import { loadPublicCompany } from '../../../server/domain/companies/companies.ts';
import { listCompanyAds } from '../../../server/domain/companies/page.ts';
import { markFavorited } from '../../../server/domain/favorites.ts';
import type { Route } from './+types/company-page';

// `/companies/{slug}` (docs/product/companies.md): a company's header and its published ads.
// Unknown slug or page → 404. Shared with anonymous visitors through the page cache, tagged with
// the company and its members (their ads' changes and the company's own drop it).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // An address name (app/lib/slug.ts's pattern, written here: that module is not this page's).
  if (params.slug.length > 80 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(params.slug)) throw notFound(request);
  const database = db(context);
  const company = await loadPublicCompany(database, params.slug);
  const pageParam = new URL(request.url).searchParams.get('page');
  const page = pageParam === null ? 1 : /^[1-9]\d{0,4}$/.test(pageParam) ? Number(pageParam) : 0;
  if (page < 1) throw notFound(request);
  const [listing, badges] = await Promise.all([
    listCompanyAds(database, company.id, page),
    badgesOfCompanies(database, [company.id]),
  ]);
  if (page > listing.pages) throw notFound(request);
  const user = await currentUser(request, context);
  listing.ads = await markFavorited(database, user?.id, listing.ads);
  const t = tFor(request);
  const locale = localeOf(request);
  const name = localName(locale, company);
  const origin = services(context).config.appUrl ?? new URL(request.url).origin;
  const { members, ...shown } = company;
  return data(
    {
      company: shown,
      badges: badges.get(company.id) ?? [],
      listing: { ...listing, page },
      url: origin + localizePath(`/companies/${company.slug}`, locale),
      origin,
      meta: {
        title: name,
        description: (company.description ?? t('ads:company.description', { name })).replace(/\s+/g, ' ').slice(0, 160),
        image: company.logo?.large,
        search: page > 1 ? `?page=${page}` : undefined,
      },
    },
    { headers: pageCacheHeaders(!!user, [`company:${company.id}`, ...members.map((id) => `user:${id}`)]) },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = routeMeta;

export default function CompanyPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('ads');
  const { name, to } = useLocale();
  const { company, listing, badges, url, origin } = loaderData;
  const title = name(company);
  return (
    <Stack gap="lg">
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: title,
          alternateName: title === company.name_en ? company.name_ar : company.name_en,
          url,
          ...(company.logo ? { logo: origin + company.logo.large } : {}),
          ...(company.description ? { description: company.description } : {}),
          ...(company.phone ? { telephone: company.phone } : {}),
          ...(company.email ? { email: company.email } : {}),
          ...(company.website ? { sameAs: [company.website] } : {}),
          ...(company.city
            ? { address: { '@type': 'PostalAddress', addressLocality: name(company.city), addressCountry: 'LY' } }
            : {}),
        }}
      />
      <Group gap="md" wrap="nowrap" align="flex-start">
        {company.logo ? (
          <img src={company.logo.large} alt="" width={72} height={72} style={{ objectFit: 'contain', flex: 'none' }} />
        ) : (
          <SpriteIcon name="store" size={72} />
        )}
        <Stack gap={6} miw={0}>
          <Title order={1} size="h2">
            <bdi>{title}</bdi>
          </Title>
          {company.verified ? (
            <Group gap={4} c="var(--mantine-color-blue-text)">
              <SpriteIcon name="verified-filled" size={18} />
              <Text size="sm" fw={600} inherit>
                {t('company.verified')}
              </Text>
            </Group>
          ) : null}
          <Text size="sm" c="dimmed" component="div">
            <MetaLine
              items={[
                ...(company.city
                  ? [{ key: 'city', icon: <IconMapPin size={14} aria-hidden />, text: name(company.city) }]
                  : []),
              ]}
            />
          </Text>
          <BadgeChips badges={badges} label={t('badges.company')} />
          {company.phone || company.website ? (
            <Group gap="xs">
              {company.phone ? (
                <Button
                  component="a"
                  href={`tel:${company.phone}`}
                  variant="default"
                  radius="xl"
                  mih={44}
                  leftSection={<IconPhone size={16} aria-hidden />}
                >
                  <bdi dir="ltr">{company.phone}</bdi>
                </Button>
              ) : null}
              {company.website ? (
                <Button
                  component="a"
                  href={company.website}
                  rel="nofollow noopener"
                  target="_blank"
                  variant="default"
                  radius="xl"
                  mih={44}
                  leftSection={<IconWorld size={16} aria-hidden />}
                >
                  <bdi dir="ltr">{new URL(company.website).hostname}</bdi>
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </Group>
      {company.description ? (
        <Text dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
          {company.description}
        </Text>
      ) : null}
      <Title order={2} size="h3">
        {t('company.ads', { count: listing.total })}
      </Title>
      {listing.total ? (
        <>
          <AdCards ads={listing.ads} label={t('company.ads', { count: listing.total })} eager={2} />
          <Pager page={listing.page} pages={listing.pages} />
        </>
      ) : (
        <EmptyState
          icon={<IconListSearch size={28} aria-hidden />}
          title={t('company.no-ads')}
          description={t('company.no-ads-hint')}
          action={{ label: t('common:nav.home'), to: to('/') }}
        />
      )}
    </Stack>
  );
}
