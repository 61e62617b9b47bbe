import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendar, IconEye, IconMapPin } from '@tabler/icons-react';
import { Suspense } from 'react';
import { data, Link, redirect } from 'react-router';
import { z } from 'zod';
import { AdGallery } from '~/components/ads/ad-gallery.tsx';
import {
  AdCards,
  BadgeChips,
  CompanyMark,
  MetaLine,
  StatusBadge,
  usePlace,
  usePrice,
  useReasonLabel,
} from '~/components/ads/ad-parts.tsx';
import { FavoriteButton } from '~/components/ads/favorite-button.tsx';
import { ContactActions, ContactBar } from '~/components/ads/seller-contact.tsx';
import { LazyBannerSlot, preloadBannerSlot } from '~/components/banners/lazy-banner.tsx';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { FormError } from '~/components/form-error.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { LocationMap } from '~/components/map/leaflet-map.tsx';
import { MemberAvatar } from '~/components/member-avatar.tsx';
import { Notice } from '~/components/notice.tsx';
import { type Locale, localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { lazyComponent } from '~/lib/lazy-component.tsx';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { currentUser, requireUser } from '~/lib/session.server.ts';
import { parseAdUrl } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { reportSchema } from '~/lib/validation/ads.ts';
import { can } from '../../../server/domain/access.ts';
import { findPendingChange } from '../../../server/domain/ads/changes.ts';
import { reportAd } from '../../../server/domain/ads/reports.ts';
import {
  type AdDetail,
  adAudience,
  isPublicStatus,
  loadAdView,
  recordAdView,
  revealSellerPhone,
  similarAds,
} from '../../../server/domain/ads/view.ts';
import { bannerTag } from '../../../server/domain/banners/changes.ts';
import { liveBanners } from '../../../server/domain/banners/public.ts';
import { chatIdForAd } from '../../../server/domain/chats/chats.ts';
import { favoritesOfAd, isFavorite, markFavorited } from '../../../server/domain/favorites.ts';
import type { Route } from './+types/ad-page';
import classes from './ad-page.module.css';

const ReportForm = lazyComponent(() => import('~/components/ads/report-form.tsx'));
const OwnerPanel = lazyComponent(() => import('~/components/ads/owner-panel.tsx'));

// The ad page `/{taxonomy}/{category}/{slug}-{id}` (docs/product/ads.md). The seller's phone
// number is never in the page: a signed-in member asks for it (`reveal-phone`) or is sent on to
// WhatsApp (`whatsapp`, a 303 to wa.me), both limited and counted by revealSellerPhone; or chats
// with the seller (a link: to the member's chat about the ad, or to /chats/new/{id} to start one).

async function load(request: Request, context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']) {
  const url = parseAdUrl(params);
  if (!url) throw notFound(request);
  const ad = await loadAdView(db(context), url.id);
  const user = await currentUser(request, context);
  const { owner, staff, visible } = adAudience(ad, user ? { id: user.id, staff: can(user, 'view-ads') } : null);
  if (!visible) throw notFound(request);
  return { ad, user, owner, staff, slug: url.slug };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // The forms that load after the page are rendered in place on the server (app/lib/lazy-component.tsx).
  const [{ ad, user, owner, staff, slug }] = await Promise.all([
    load(request, context, params),
    ReportForm.preload(),
    OwnerPanel.preload(),
    preloadBannerSlot(),
  ]);
  const locale = localeOf(request);
  const t = tFor(request);
  const canonical = localizePath(`/${ad.path.taxonomy.slug}/${ad.path.category.slug}/${ad.slug}-${ad.id}`, locale);
  // A member's hearts show what they saved (their pages are never shared).
  const similar = await markFavorited(db(context), user?.id, await similarAds(db(context), ad));
  // The owner is told when an edit of theirs waits for review (signed-in pages are never cached).
  const pendingChange =
    owner && ad.status === 'published' ? (await findPendingChange(db(context), ad.id)) !== null : false;
  // The owner sees how many members saved it; a member, whether they did.
  const favorites = owner ? await favoritesOfAd(db(context), ad.id) : null;
  const favorited = !!user && !owner && (await isFavorite(db(context), user.id, ad.id));
  if (ad.status === 'deleted') {
    // Gone for good: 410 with similar ads, so visitors and crawlers both know.
    return data(
      {
        gone: true as const,
        ad: null,
        similar,
        owner,
        staff,
        revealed: null,
        meta: { title: t('ads:page.gone-title'), noindex: true },
      },
      { status: 410 },
    );
  }
  if (params.taxonomy !== ad.path.taxonomy.slug || params.category !== ad.path.category.slug || slug !== ad.slug) {
    // Arabic slugs: a Location header carries ASCII only.
    throw redirect(encodeURI(canonical) + new URL(request.url).search, 301);
  }
  await recordAdView(
    db(context),
    { id: ad.id, status: ad.status, sellerId: ad.seller?.id ?? null },
    { userId: user?.id ?? null, ip: requestInfo(context).ip, userAgent: request.headers.get('user-agent') ?? '' },
  );
  const description = ad.description.replace(/\s+/g, ' ').slice(0, 160);
  // The sidebar's banner: aimed at the ad's taxonomy, category trail and city, or at no one in particular.
  const banners = await liveBanners(
    db(context),
    'ad-sidebar',
    { taxonomy: ad.path.taxonomy.slug, categories: ad.path.trail.map((c) => c.slug), city: { id: ad.city.id } },
    locale,
  );
  const tags = [
    `ad:${ad.id}`,
    `category:${ad.path.category.id}`,
    ...(ad.seller ? [`user:${ad.seller.id}`] : []),
    bannerTag('ad-sidebar'),
    ...(ad.company ? [`company:${ad.company.id}`] : []),
  ];
  const headers = pageCacheHeaders(!!user, tags, ad.status === 'published' ? ad.id : undefined);
  return data(
    {
      gone: false as const,
      ad,
      similar,
      owner,
      pendingChange,
      staff,
      signedIn: !!user,
      // A buyer who wrote about this ad before goes back to that chat.
      chatId: user && !owner ? await chatIdForAd(db(context), ad.id, user.id) : null,
      favorites,
      favorited,
      banners,
      meta: {
        title: `${ad.title} — ${localName(locale, ad.city)}`,
        description,
        image: ad.photos[0]?.urls.large,
        noindex: !isPublicStatus(ad.status) || ad.hidden,
      },
    },
    { headers },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const { ad } = await load(request, context, params);
  const form = await request.formData();
  const intent = form.get('intent');
  const origin = services(context).config.appUrl ?? new URL(request.url).origin;
  const adUrl = (locale: Locale) =>
    origin + encodeURI(localizePath(`/${ad.path.taxonomy.slug}/${ad.path.category.slug}/${ad.slug}-${ad.id}`, locale));
  if (intent === 'reveal-phone' || intent === 'whatsapp') {
    return formAction(form, z.object({}), async (_, reply) => {
      // Signed-in members only, counted against a limit so numbers cannot be harvested.
      const channel = intent === 'whatsapp' ? 'whatsapp' : 'phone';
      const phone = await revealSellerPhone(db(context), ad.id, user.id, channel);
      if (channel === 'phone') return { result: reply.cleared(), formError: undefined, revealed: phone };
      const text = tFor(request)('ads:page.whatsapp-text', { title: ad.title, url: adUrl(localeOf(request)) });
      return redirect(`https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`, 303);
    });
  }
  if (intent === 'report') {
    return formAction(
      form,
      reportSchema,
      async (value, reply) => {
        await reportAd(db(context), user.id, ad.id, value);
        return { result: reply.cleared(), formError: undefined, reported: true };
      },
      { invalid: 'bad-request' },
    );
  }
  throw notFound(request);
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

export default function AdPage({ loaderData, actionData, matches }: Route.ComponentProps) {
  const { t } = useT('ads');
  const reasonLabel = useReasonLabel();
  const { to, name, locale } = useLocale();
  const price = usePrice();
  const placeOf = usePlace();
  const origin = matches[0]?.loaderData?.origin ?? '';
  const revealed = actionData && 'revealed' in actionData ? actionData.revealed : null;
  if (loaderData.gone) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('page.gone-title')}</Title>
        <Text>{t('page.gone-body')}</Text>
        {loaderData.similar.length ? (
          <section>
            <Title order={2} size="h3" mb="sm">
              {t('page.similar')}
            </Title>
            <AdCards ads={loaderData.similar} label={t('page.similar')} />
          </section>
        ) : null}
      </Stack>
    );
  }
  const { ad, similar, owner } = loaderData;
  const { taxonomy, trail } = ad.path;
  const url = origin + to(`/${taxonomy.slug}/${ad.path.category.slug}/${ad.slug}-${ad.id}`);
  const loginHref = `${to('/login')}?redirect=${encodeURIComponent(url.replace(origin, ''))}`;
  const crumbs = [
    { label: t('common:nav.home'), href: to('/') },
    { label: name(taxonomy), href: to(`/${taxonomy.slug}`) },
    ...trail.map((c) => ({ label: name(c), href: to(`/${taxonomy.slug}/${c.slug}`) })),
    { label: ad.title },
  ];
  const date = (iso: string | null) => (iso ? dates(locale).date(iso) : '');
  const place = placeOf(ad);
  const availability = ad.status === 'published' ? 'InStock' : ad.status === 'sold' ? 'SoldOut' : 'Discontinued';
  // Buyers reach the seller of a live ad; the owner sees their own actions instead.
  const contactable = ad.status === 'published' && !owner;
  const startChat = to(`/chats/new/${ad.id}`);
  const chatHref = !loaderData.signedIn
    ? `${to('/login')}?redirect=${encodeURIComponent(startChat)}`
    : loaderData.chatId !== null
      ? to(`/chats/${loaderData.chatId}`)
      : startChat;
  const contact = { contact: ad.contact, signedIn: loaderData.signedIn, loginHref, chatHref, revealed };
  // The attributes cards show (else the first ones), as labelled chips under the price.
  const keyDetails = (
    ad.details.some((d) => d.shown_on_card) ? ad.details.filter((d) => d.shown_on_card) : ad.details
  ).slice(0, 3);
  return (
    <Stack gap="lg">
      <JsonLd data={breadcrumbJsonLd(origin, crumbs)} />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: ad.title,
          description: ad.description,
          image: ad.photos.map((p) => origin + p.urls.large),
          category: name(ad.path.category),
          offers: {
            '@type': 'Offer',
            url,
            availability: `https://schema.org/${availability}`,
            ...(ad.price !== null ? { price: ad.price, priceCurrency: ad.currency } : {}),
          },
        }}
      />
      <Breadcrumbs items={crumbs} />
      {ad.status !== 'published' ? (
        <Notice tone={ad.status === 'rejected' ? 'red' : 'gray'} title={t(`status.${ad.status}`)}>
          {t(`page.state.${ad.status}`)}
          {ad.status === 'rejected' && owner && ad.rejection_reason
            ? ` ${t('page.reason', { reason: reasonLabel(ad.rejection_reason) })}`
            : ''}
        </Notice>
      ) : null}
      <div className={classes.columns}>
        <div className={classes.main}>
          <Stack gap="md">
            <AdGallery photos={ad.photos} title={ad.title} />
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              {/* The title takes the room the badge and the heart leave, wrapping (a long word too). */}
              <Title order={1} size="h2" dir="auto" className={classes.title}>
                {ad.title}
              </Title>
              <Group gap="xs" wrap="nowrap">
                <StatusBadge status={ad.status} />
                {/* Saved by members (not the owner, who sees the count): a live ad, or one they saved, to remove it. */}
                {!owner && (ad.status === 'published' || loaderData.favorited) ? (
                  <FavoriteButton adId={ad.id} saved={loaderData.favorited} />
                ) : null}
              </Group>
            </Group>
            <Text fz="xl" fw={700} c="brand">
              {price(ad)}
            </Text>
            {keyDetails.length ? (
              <ul className={classes.keyDetails} aria-label={t('page.key-details')}>
                {keyDetails.map((d) => (
                  <li key={d.label.key} className={classes.keyDetail}>
                    <span className={classes.keyValue} dir="auto">
                      {detailValue(d, locale)}
                    </span>
                    <span className={classes.keyLabel}>{name(d.label)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            <Text size="sm" c="dimmed">
              <MetaLine
                items={[
                  { key: 'place', icon: <IconMapPin size={16} aria-hidden />, text: place },
                  {
                    key: 'published',
                    icon: <IconCalendar size={16} aria-hidden />,
                    text: t('page.published', { date: date(ad.published_at ?? ad.updated_at) }),
                  },
                  { key: 'views', icon: <IconEye size={16} aria-hidden />, text: t('page.views', { count: ad.views }) },
                ]}
              />
            </Text>
            {ad.details.length ? (
              <table className={classes.details} aria-label={t('page.details')}>
                <tbody>
                  {ad.details.map((d) => (
                    <tr key={d.label.key}>
                      <th scope="row">{name(d.label)}</th>
                      <td>{detailValue(d, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <section>
              <Title order={2} size="h4" mb="xs">
                {t('page.description')}
              </Title>
              <Text dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                {ad.description}
              </Text>
            </section>
          </Stack>
        </div>
        <div className={classes.side}>
          <Stack gap="md">
            {ad.seller ? (
              <Card withBorder radius="lg">
                <Group>
                  <MemberAvatar name={ad.seller.name} src={ad.seller.image} />
                  <div>
                    <Anchor component={Link} to={to(`/users/${ad.seller.id}`)} fw={600}>
                      <bdi>{ad.seller.name}</bdi>
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {t('page.member-since', { date: date(ad.seller.member_since) })}
                    </Text>
                  </div>
                </Group>
                <BadgeChips badges={ad.seller.badges} label={t('badges.member')} />
                {ad.company ? (
                  <Stack gap={4} mt="sm">
                    <CompanyMark company={ad.company} link size={32} />
                    <BadgeChips badges={ad.company.badges} label={t('badges.company')} />
                  </Stack>
                ) : null}
              </Card>
            ) : null}
            <FormError code={actionData?.formError} />
            {contactable ? <ContactActions {...contact} /> : null}
            {owner ? (
              // Loads after the page (only the owner sees it); the server renders it in place.
              <Suspense fallback={null}>
                <OwnerPanel
                  ad={{
                    id: ad.id,
                    slug: ad.slug,
                    status: ad.status,
                    taxonomy_slug: ad.path.taxonomy.slug,
                    category_slug: ad.path.category.slug,
                    contact: ad.contact,
                  }}
                  pendingChange={loaderData.pendingChange}
                  favorites={loaderData.favorites}
                />
              </Suspense>
            ) : null}
            <section>
              <Title order={2} size="h4" mb={4}>
                {t('page.location')}
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {t('page.location-approximate-in', { place })}
              </Text>
              <LocationMap location={ad.location} label={t('page.location-map', { place })} place={place} />
            </section>
            {!owner && ad.status === 'published' ? (
              actionData && 'reported' in actionData && actionData.reported ? (
                <Notice tone="brand">{t('report.sent')}</Notice>
              ) : loaderData.signedIn ? (
                <details>
                  <summary style={{ cursor: 'pointer' }}>
                    <Text span size="sm" c="dimmed">
                      {t('report.title')}
                    </Text>
                  </summary>
                  {/* Loads after the page (Mantine's inputs stay out of its first load); the server renders
                      it, so the form works before and without the script. */}
                  <Suspense fallback={null}>
                    <ReportForm />
                  </Suspense>
                </details>
              ) : (
                <Anchor component={Link} to={loginHref} size="sm" c="dimmed">
                  {t('report.login')}
                </Anchor>
              )
            ) : null}
            <Anchor component={Link} to={to(`/${taxonomy.slug}/${ad.path.category.slug}`)} size="sm">
              {t('page.more-in', { category: name(ad.path.category) })}
            </Anchor>
            <LazyBannerSlot banners={loaderData.banners} label={t('common:banner.label')} lazy />
          </Stack>
        </div>
      </div>
      {similar.length ? (
        <section>
          <Title order={2} size="h3" mb="sm">
            {t('page.similar')}
          </Title>
          <AdCards ads={similar} label={t('page.similar')} />
        </section>
      ) : null}
      {contactable ? <ContactBar {...contact} /> : null}
    </Stack>
  );
}

/** An attribute's value as the page shows it: option names or the value, with its unit. */
function detailValue(d: AdDetail, locale: Locale): string {
  const unit = locale === 'ar' ? d.label.unit_ar : d.label.unit_en;
  // A number reads with the locale's grouping ("180,000 km"); a year never does.
  const number = d.label.type === 'number' ? numberFormat(locale) : null;
  const values = d.values
    .map((v) => (locale === 'ar' ? v.ar : v.en))
    .map((v) => (number && /^-?\d+(\.\d+)?$/.test(v) ? number.format(Number(v)) : v))
    .join(locale === 'ar' ? '، ' : ', ');
  return unit ? `${values} ${unit}` : values;
}
