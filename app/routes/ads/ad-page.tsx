import {
  Alert,
  Anchor,
  Avatar,
  Button,
  Card,
  Grid,
  Group,
  Image,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconBrandWhatsapp, IconMapPin, IconPhone } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { AdCards, StatusBadge, usePrice, useReasonLabel } from '~/components/ads/ad-parts.tsx';
import { OwnerAdActions } from '~/components/ads/owner-actions.tsx';
import { Breadcrumbs, breadcrumbJsonLd } from '~/components/catalog/breadcrumbs.tsx';
import { FormError } from '~/components/form-error.tsx';
import { JsonLd } from '~/components/json-ld.tsx';
import { LocationMap } from '~/components/map/leaflet-map.tsx';
import { localeTags, localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { dateTimeFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { pageCacheHeaders, pageHeaders } from '~/lib/page-cache.ts';
import { REPORT_REASONS } from '~/lib/report-reasons.ts';
import { db, localeOf, notFound, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { currentUser, requireUser } from '~/lib/session.server.ts';
import { parseAdUrl } from '~/lib/slug.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { reportSchema } from '~/lib/validation/ads.ts';
import { can } from '../../../server/domain/access.ts';
import { findPendingChange } from '../../../server/domain/ads/changes.ts';
import { reportAd } from '../../../server/domain/ads/reports.ts';
import {
  adAudience,
  isPublicStatus,
  loadAdView,
  recordAdView,
  revealSellerPhone,
  similarAds,
} from '../../../server/domain/ads/view.ts';
import type { Route } from './+types/ad-page';

// The ad page `/{taxonomy}/{category}/{slug}-{id}` (docs/product/ads.md). The seller's phone
// number is never in the page: a signed-in member asks for it (`reveal-phone`) or is sent on to
// WhatsApp (`whatsapp`, a 303 to wa.me), both limited and counted by revealSellerPhone.

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
  const { ad, user, owner, staff, slug } = await load(request, context, params);
  const locale = localeOf(request);
  const t = tFor(request);
  const canonical = localizePath(`/${ad.path.taxonomy.slug}/${ad.path.category.slug}/${ad.slug}-${ad.id}`, locale);
  const similar = await similarAds(db(context), ad);
  // The owner is told when an edit of theirs waits for review (signed-in pages are never cached).
  const pendingChange =
    owner && ad.status === 'published' ? (await findPendingChange(db(context), ad.id)) !== null : false;
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
  const tags = [`ad:${ad.id}`, `category:${ad.path.category.id}`, ...(ad.seller ? [`user:${ad.seller.id}`] : [])];
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
      meta: {
        title: `${ad.title} — ${localName(locale, ad.city)}`,
        description,
        image: ad.photos[0]?.urls.large,
        noindex: !isPublicStatus(ad.status),
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
  if (intent === 'reveal-phone' || intent === 'whatsapp') {
    return formAction(form, z.object({}), async (_, reply) => {
      // Signed-in members only, counted against a limit so numbers cannot be harvested.
      const channel = intent === 'whatsapp' ? 'whatsapp' : 'phone';
      const phone = await revealSellerPhone(db(context), ad.id, user.id, channel);
      if (channel === 'phone') return { result: reply.cleared(), formError: undefined, revealed: phone };
      const origin = services(context).config.appUrl ?? new URL(request.url).origin;
      const page = localizePath(
        `/${ad.path.taxonomy.slug}/${ad.path.category.slug}/${ad.slug}-${ad.id}`,
        localeOf(request),
      );
      const text = tFor(request)('ads:page.whatsapp-text', { title: ad.title, url: origin + encodeURI(page) });
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
  const [zoom, setZoom] = useState<number | null>(null);
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
  const date = (iso: string | null) =>
    iso ? dateTimeFormat(localeTags[locale], { dateStyle: 'medium' }).format(new Date(iso)) : '';
  const place = ad.area ? `${name(ad.area)}${locale === 'ar' ? '، ' : ', '}${name(ad.city)}` : name(ad.city);
  const availability = ad.status === 'published' ? 'InStock' : ad.status === 'sold' ? 'SoldOut' : 'Discontinued';
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
        <Alert color={ad.status === 'rejected' ? 'red' : 'gray'} role="status" title={t(`status.${ad.status}`)}>
          {t(`page.state.${ad.status}`)}
          {ad.status === 'rejected' && owner && ad.rejection_reason
            ? ` ${t('page.reason', { reason: reasonLabel(ad.rejection_reason) })}`
            : ''}
        </Alert>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            {ad.photos.length ? (
              <Stack gap="xs">
                <UnstyledButton onClick={() => setZoom(0)} aria-label={t('page.zoom')}>
                  <Image
                    src={ad.photos[0]?.urls.large}
                    srcSet={
                      ad.photos[0] ? `${ad.photos[0].urls.medium} 800w, ${ad.photos[0].urls.large} 1600w` : undefined
                    }
                    sizes="(max-width: 62em) 100vw, 66vw"
                    // The page's largest paint: fetched first, never lazily (docs/performance.md).
                    fetchPriority="high"
                    alt={ad.title}
                    radius="md"
                    mah={480}
                    fit="contain"
                    bg="var(--mantine-color-default-hover)"
                  />
                </UnstyledButton>
                {ad.photos.length > 1 ? (
                  <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {ad.photos.map((p, i) => (
                      <li key={p.id}>
                        <UnstyledButton onClick={() => setZoom(i)} aria-label={t('page.photo-n', { n: i + 1 })}>
                          <Image src={p.urls.thumb} alt="" w={88} h={66} radius="sm" fit="cover" loading="lazy" />
                        </UnstyledButton>
                      </li>
                    ))}
                  </Group>
                ) : null}
                <Modal
                  opened={zoom !== null}
                  onClose={() => setZoom(null)}
                  fullScreen
                  title={ad.title}
                  closeButtonProps={{ 'aria-label': t('page.zoom-close') }}
                >
                  {zoom !== null && ad.photos[zoom] ? (
                    <Stack align="center" gap="sm">
                      <Image
                        src={ad.photos[zoom].urls.large}
                        alt={t('page.photo-n', { n: zoom + 1 })}
                        fit="contain"
                        mah="80vh"
                      />
                      <Group>
                        <Button variant="default" disabled={zoom === 0} onClick={() => setZoom(zoom - 1)}>
                          {t('page.previous')}
                        </Button>
                        <Button
                          variant="default"
                          disabled={zoom === ad.photos.length - 1}
                          onClick={() => setZoom(zoom + 1)}
                        >
                          {t('page.next')}
                        </Button>
                      </Group>
                    </Stack>
                  ) : null}
                </Modal>
              </Stack>
            ) : null}
            <Group justify="space-between" align="flex-start">
              <Title order={1} size="h2" dir="auto">
                {ad.title}
              </Title>
              <StatusBadge status={ad.status} />
            </Group>
            <Text fz="xl" fw={700} c="brand">
              {price(ad)}
            </Text>
            <Group gap={6} c="dimmed">
              <IconMapPin size={16} aria-hidden />
              <Text size="sm">
                {place} · {t('page.published', { date: date(ad.published_at ?? ad.updated_at) })} ·{' '}
                {t('page.views', { count: ad.views })}
              </Text>
            </Group>
            {ad.details.length ? (
              <Table striped withTableBorder aria-label={t('page.details')}>
                <Table.Tbody>
                  {ad.details.map((d) => (
                    <Table.Tr key={d.label.key}>
                      <Table.Th scope="row" w="40%">
                        {name(d.label)}
                      </Table.Th>
                      <Table.Td>
                        {d.values.map((v) => (locale === 'ar' ? v.ar : v.en)).join(locale === 'ar' ? '، ' : ', ')}
                        {(locale === 'ar' ? d.label.unit_ar : d.label.unit_en)
                          ? ` ${locale === 'ar' ? d.label.unit_ar : d.label.unit_en}`
                          : ''}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : null}
            <section>
              <Title order={2} size="h4" mb="xs">
                {t('page.description')}
              </Title>
              <Text dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                {ad.description}
              </Text>
            </section>
            <section>
              <Title order={2} size="h4" mb={4}>
                {t('page.location')}
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {place} · {t('page.location-approximate')}
              </Text>
              <LocationMap location={ad.location} label={t('page.location-map', { place })} />
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            {ad.seller ? (
              <Card withBorder radius="lg">
                <Group>
                  <Avatar
                    src={ad.seller.image ?? undefined}
                    alt=""
                    name={ad.seller.name}
                    color="brand"
                    variant="filled"
                  />
                  <div>
                    <Anchor component={Link} to={to(`/users/${ad.seller.id}`)} fw={600}>
                      <bdi>{ad.seller.name}</bdi>
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {t('page.member-since', { date: date(ad.seller.member_since) })}
                    </Text>
                  </div>
                </Group>
              </Card>
            ) : null}
            <FormError code={actionData?.formError} />
            {ad.status === 'published' && !owner ? (
              ad.contact.phone || ad.contact.whatsapp ? (
                <Stack gap="xs">
                  {ad.contact.phone ? (
                    revealed ? (
                      <Button
                        component="a"
                        href={`tel:${revealed}`}
                        leftSection={<IconPhone aria-hidden />}
                        radius="xl"
                        size="lg"
                      >
                        <bdi dir="ltr">{revealed}</bdi>
                      </Button>
                    ) : (
                      <ContactButton
                        intent="reveal-phone"
                        icon={<IconPhone aria-hidden />}
                        label={t('page.show-phone')}
                        loginLabel={t('page.login-for-phone')}
                        signedIn={loaderData.signedIn}
                        loginHref={loginHref}
                      />
                    )
                  ) : null}
                  {ad.contact.whatsapp ? (
                    // A post: the server checks, limits and counts, then sends the browser on to
                    // wa.me (the app on a phone) with a 303. Works without JavaScript.
                    <ContactButton
                      intent="whatsapp"
                      icon={<IconBrandWhatsapp aria-hidden />}
                      label={t('page.whatsapp')}
                      loginLabel={t('page.login-for-whatsapp')}
                      signedIn={loaderData.signedIn}
                      loginHref={loginHref}
                      color="green"
                      variant="outline"
                    />
                  ) : null}
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('page.no-contact')}
                </Text>
              )
            ) : null}
            {owner ? (
              <Card withBorder radius="lg">
                <Stack gap="xs">
                  <Text fw={600}>{t('page.yours')}</Text>
                  {loaderData.pendingChange ? (
                    <Alert color="yellow" role="status" title={t('mine.change-pending')}>
                      {t('mine.change-pending-hint')}
                    </Alert>
                  ) : null}
                  {!ad.contact.phone && !ad.contact.whatsapp && ['published', 'pending'].includes(ad.status) ? (
                    <Alert color="yellow" role="status">
                      {t('page.owner-no-contact')}
                    </Alert>
                  ) : null}
                  <OwnerAdActions
                    ad={{
                      id: ad.id,
                      slug: ad.slug,
                      status: ad.status,
                      taxonomy_slug: ad.path.taxonomy.slug,
                      category_slug: ad.path.category.slug,
                      pending_change: loaderData.pendingChange,
                    }}
                    stacked
                  />
                </Stack>
              </Card>
            ) : null}
            {!owner && ad.status === 'published' ? (
              actionData && 'reported' in actionData && actionData.reported ? (
                <Alert color="brand" role="status">
                  {t('report.sent')}
                </Alert>
              ) : loaderData.signedIn ? (
                <details>
                  <summary style={{ cursor: 'pointer' }}>
                    <Text span size="sm" c="dimmed">
                      {t('report.title')}
                    </Text>
                  </summary>
                  <Form method="post">
                    <input type="hidden" name="intent" value="report" />
                    <Stack gap="xs" mt="xs">
                      <NativeSelect
                        name="reason"
                        label={t('report.reason')}
                        data={REPORT_REASONS.map((r) => ({ value: r, label: t(`report.reasons.${r}`) }))}
                        required
                      />
                      <Textarea name="note" label={t('report.note')} maxLength={1000} autosize minRows={2} dir="auto" />
                      <Button type="submit" variant="default" radius="xl">
                        {t('report.submit')}
                      </Button>
                    </Stack>
                  </Form>
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
          </Stack>
        </Grid.Col>
      </Grid>
      {similar.length ? (
        <section>
          <Title order={2} size="h3" mb="sm">
            {t('page.similar')}
          </Title>
          <AdCards ads={similar} label={t('page.similar')} />
        </section>
      ) : null}
    </Stack>
  );
}

/**
 * A way to reach the seller: for a member, a post of `intent` (the server applies the reveal rule);
 * for a visitor, a link to sign in first and come back.
 */
function ContactButton(props: {
  intent: 'reveal-phone' | 'whatsapp';
  icon: ReactNode;
  label: string;
  loginLabel: string;
  signedIn: boolean;
  loginHref: string;
  color?: string;
  variant?: string;
}) {
  if (!props.signedIn) {
    return (
      <Button component={Link} to={props.loginHref} variant="default" leftSection={props.icon} radius="xl" size="lg">
        {props.loginLabel}
      </Button>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={props.intent} />
      <Button
        type="submit"
        fullWidth
        color={props.color}
        variant={props.variant}
        leftSection={props.icon}
        radius="xl"
        size="lg"
      >
        {props.label}
      </Button>
    </Form>
  );
}
