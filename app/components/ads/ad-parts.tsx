import { Badge, Button, Card, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMapPin, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localeTags } from '~/i18n/config.ts';
import { numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { isRejectionReason } from '~/lib/validation/moderation.ts';
import type { AdCard as AdCardData } from '../../../server/domain/ad-view.ts';

/** The price as buyers read it: amount and currency in the page's digits, or the price type. */
export function usePrice() {
  const { t } = useTranslation('ads');
  const { locale } = useLocale();
  return (ad: { price: number | null; currency: string; price_type: string }) => {
    if (ad.price === null) return t(`price-types.${ad.price_type}`);
    const amount = numberFormat(localeTags[locale], { maximumFractionDigits: 0 }).format(ad.price);
    const money = `${amount} ${t(`currency-short.${ad.currency}`)}`;
    return ad.price_type === 'negotiable' ? `${money} · ${t('price-types.negotiable')}` : money;
  };
}

export const adPath = (ad: { id: number; slug: string; taxonomy_slug: string; category_slug: string }) =>
  `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`;

/** An ad in a list: photo, title, price, city. Two per row on phones. */
export function AdCard({ ad }: { ad: AdCardData }) {
  const { to, name } = useLocale();
  const price = usePrice();
  return (
    <Card component={Link} to={to(adPath(ad))} withBorder radius="lg" padding="xs">
      <Card.Section>
        {ad.photo ? (
          <Image src={ad.photo.thumb} alt="" h={140} fit="cover" loading="lazy" />
        ) : (
          <Group h={140} justify="center" bg="var(--mantine-color-default-hover)">
            <IconPhoto size={32} aria-hidden color="var(--mantine-color-dimmed)" />
          </Group>
        )}
      </Card.Section>
      <Stack gap={2} mt="xs">
        <Text fw={600} lineClamp={2} dir="auto" size="sm">
          {ad.title}
        </Text>
        <Text fw={700} c="brand" size="sm">
          {price(ad)}
        </Text>
        <Group gap={4} c="dimmed">
          <IconMapPin size={14} aria-hidden />
          <Text size="xs">{name(ad.city)}</Text>
        </Group>
      </Stack>
    </Card>
  );
}

export function AdCards({ ads, label }: { ads: AdCardData[]; label: string }) {
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, md: 4 }}
      spacing="sm"
      component="ul"
      aria-label={label}
      style={{ listStyle: 'none', padding: 0 }}
    >
      {ads.map((ad) => (
        <li key={ad.id}>
          <AdCard ad={ad} />
        </li>
      ))}
    </SimpleGrid>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('ads');
  const color =
    status === 'published' ? 'brand' : status === 'pending' ? 'yellow' : status === 'sold' ? 'blue' : 'gray';
  return (
    <Badge color={color} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Previous / page n of m / next, with stable `?page=` URLs (page 1 has none). Nothing for one page. */
export function Pager({ page, pages }: { page: number; pages: number }) {
  const { t } = useTranslation('catalog');
  if (pages <= 1) return null;
  return (
    <Group justify="center" mt="lg" component="nav" aria-label={t('pagination')}>
      {page > 1 ? (
        <Button component={Link} to={page === 2 ? '?' : `?page=${page - 1}`} variant="default" radius="xl">
          {t('previous-page')}
        </Button>
      ) : null}
      <Text size="sm">{t('page-of', { page, pages })}</Text>
      {page < pages ? (
        <Button component={Link} to={`?page=${page + 1}`} variant="default" radius="xl">
          {t('next-page')}
        </Button>
      ) : null}
    </Group>
  );
}

/** A stored rejection reason: a reason's code in words, or the moderator's own text. */
export function useReasonLabel() {
  const { t } = useTranslation('admin');
  return (stored: string | null) => (stored && isRejectionReason(stored) ? t(`reasons.${stored}`) : (stored ?? ''));
}
