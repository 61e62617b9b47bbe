import { Badge, Button, Group, Text } from '@mantine/core';
import { IconClock, IconMapPin, IconPhoto } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { isRejectionReason } from '~/lib/moderation-codes.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { AdCard as AdCardData, CardValue } from '../../../server/domain/ads/cards.ts';
import { BadgeChips } from '../badge-chip.tsx';
import { CompanyMark } from '../company-mark.tsx';

// Badges and company marks: imported from here by every page, so they ride in this module's chunk.
export { BadgeChip, BadgeChips, SpriteIcon } from '../badge-chip.tsx';
export { CompanyMark } from '../company-mark.tsx';

import { RelativeTime } from '../relative-time.tsx';
import classes from './ad-card.module.css';
import { FavoriteButton } from './favorite-button.tsx';

type Priced = { price: number | null; currency: string; price_type: string };

/** The amount in the site's digits with its currency ("4,650 د.ل"), or the price type's words. */
export function useMoney() {
  const { t } = useT('ads');
  const { locale } = useLocale();
  return (ad: Priced) => {
    if (ad.price === null) return t(`price-types.${ad.price_type}`);
    return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(ad.price)} ${t(`currency-short.${ad.currency}`)}`;
  };
}

const negotiable = (ad: Priced) => ad.price !== null && ad.price_type === 'negotiable';

/** The price as buyers read it: "4,650 د.ل، قابل للتفاوض", or the price type. */
export function usePrice() {
  const { t } = useT('ads');
  const money = useMoney();
  return (ad: Priced) => (negotiable(ad) ? t('price-negotiable', { money: money(ad) }) : money(ad));
}

/** "Area, City" (the ad page's and the cards' order), or the city alone. */
export function usePlace() {
  const { name, locale } = useLocale();
  return (ad: { city: { name_ar: string; name_en: string }; area: { name_ar: string; name_en: string } | null }) =>
    ad.area ? `${name(ad.area)}${locale === 'ar' ? '، ' : ', '}${name(ad.city)}` : name(ad.city);
}

/** A card's value in words: the catalogue's plural for a number where it has one ("3 bedrooms"). */
function useCardValue() {
  const { t } = useT('ads');
  const { locale } = useLocale();
  return (v: CardValue) => {
    const worded =
      v.key && v.count !== undefined
        ? t(`card-values.${v.key}`, { count: v.count, value: v.count, defaultValue: '' })
        : '';
    return worded || (locale === 'ar' ? v.ar : v.en);
  };
}

/**
 * A line of facts (docs/product/site.md, "Numbers and dates"): each one labelled or with its icon,
 * isolated (a Latin model inside Arabic keeps its own direction), apart by a thin rule drawn in CSS
 * rather than a "·", which beside digits reads as one. Wraps rather than cutting a value.
 */
export function MetaLine({
  items,
  className,
}: {
  items: { key: string; icon?: ReactNode; text: ReactNode }[];
  className?: string;
}) {
  return (
    <span className={className ? `${classes.facts} ${className}` : classes.facts}>
      {items.map((item) => (
        <span key={item.key} className={classes.fact}>
          {item.icon}
          <bdi>{item.text}</bdi>
        </span>
      ))}
    </span>
  );
}

export const adPath = (ad: { id: number; slug: string; taxonomy_slug: string; category_slug: string }) =>
  `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`;

/**
 * An ad in a list (docs/product/site.md): photo in 4:3, price first, title in two lines at most, key
 * details (labelled), area and city, and when it was posted; a featured marker where paid for. Two per row on
 * phones. `now` (the server's, for the same words in the browser) shows the time. Plain elements
 * and a CSS module: lists render many cards per request. Beside the link (a form may not sit in a
 * link), the heart that saves it to the member's favorites (favorite-button.tsx), over the photo's
 * corner; `ad.favorited` comes with members' pages only.
 */
export function AdCard({ ad, now, first = false }: { ad: AdCardData; now?: string; first?: boolean }) {
  return (
    <>
      <CardLink ad={ad} now={now} first={first} />
      <FavoriteButton adId={ad.id} saved={ad.favorited} onCard />
    </>
  );
}

/** The card's link: everything a card shows but its heart. */
function CardLink({ ad, now, first = false }: { ad: AdCardData; now?: string; first?: boolean }) {
  const { t } = useT('ads');
  const { to } = useLocale();
  const money = useMoney();
  const place = usePlace();
  const value = useCardValue();
  return (
    <Link to={to(adPath(ad))} className={classes.card}>
      <div className={classes.photo}>
        {ad.photo ? (
          <img
            src={ad.photo.thumb}
            srcSet={ad.photo.srcset}
            sizes="(min-width: 62em) 25vw, (min-width: 48em) 33vw, 50vw"
            alt=""
            // The first cards of a result list are the largest thing on a phone's first screen:
            // fetched at once and first, never lazily (docs/performance.md).
            loading={first ? 'eager' : 'lazy'}
            fetchPriority={first ? 'high' : undefined}
          />
        ) : (
          <div className={classes.noPhoto}>
            <IconPhoto size={32} aria-hidden />
          </div>
        )}
        {ad.featured ? <span className={classes.featured}>{t('featured')}</span> : null}
      </div>
      <div className={classes.body}>
        <span className={classes.price}>
          <bdi>{money(ad)}</bdi>
          {negotiable(ad) ? <span className={classes.priceNote}>{t('price-types.negotiable')}</span> : null}
        </span>
        <span className={classes.title} dir="auto">
          {ad.title}
        </span>
        {ad.company || ad.badges?.length ? (
          <span className={classes.seller}>
            {ad.company ? <CompanyMark company={ad.company} /> : null}
            {ad.badges?.length ? <BadgeChips badges={ad.badges} compact /> : null}
          </span>
        ) : null}
        {ad.attributes.length > 0 ? (
          <MetaLine
            className={classes.meta}
            items={ad.attributes.map((a, i) => ({ key: String(i), text: value(a) }))}
          />
        ) : null}
        <MetaLine
          className={classes.meta}
          items={[
            { key: 'place', icon: <IconMapPin size={14} aria-hidden />, text: place(ad) },
            ...(now && ad.bumped_at
              ? [
                  {
                    key: 'time',
                    icon: <IconClock size={14} aria-hidden />,
                    text: <RelativeTime iso={ad.bumped_at} now={now} />,
                  },
                ]
              : []),
          ]}
        />
      </div>
    </Link>
  );
}

/** `eager`: how many leading cards are on the first screen (their photos are not lazy). */
export function AdCards({
  ads,
  label,
  now,
  eager = 0,
}: {
  ads: AdCardData[];
  label: string;
  now?: string;
  eager?: number;
}) {
  return (
    <ul className={classes.cards} aria-label={label}>
      {ads.map((ad, i) => (
        <li key={ad.id}>
          <AdCard ad={ad} now={now} first={i < eager} />
        </li>
      ))}
    </ul>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useT('ads');
  const color =
    status === 'published' ? 'brand' : status === 'pending' ? 'yellow' : status === 'sold' ? 'blue' : 'gray';
  return (
    // Never shrunk beside a long title: the status is read whole.
    <Badge color={color} variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/**
 * Previous / page n of m / next, with stable `?page=` URLs (page 1 has none). Nothing for one page.
 * `href` gives a page's link when the URL says more than the page (a search's filters).
 */
export function Pager({ page, pages, href }: { page: number; pages: number; href?: (page: number) => string }) {
  const { t } = useT('catalog');
  if (pages <= 1) return null;
  const link = href ?? ((n: number) => (n === 1 ? '?' : `?page=${n}`));
  return (
    <Group justify="center" mt="lg" component="nav" aria-label={t('pagination')}>
      {page > 1 ? (
        <Button component={Link} to={link(page - 1)} variant="default" radius="xl">
          {t('previous-page')}
        </Button>
      ) : null}
      <Text size="sm">{t('page-of', { page, pages })}</Text>
      {page < pages ? (
        <Button component={Link} to={link(page + 1)} variant="default" radius="xl">
          {t('next-page')}
        </Button>
      ) : null}
    </Group>
  );
}

/** A stored rejection reason: a reason's code in words, or the moderator's own text. */
export function useReasonLabel() {
  const { t } = useT('ads');
  return (stored: string | null) =>
    stored && isRejectionReason(stored) ? t(`rejection-reasons.${stored}`) : (stored ?? '');
}
