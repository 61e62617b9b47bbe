// Banners on the public pages (docs/product/back-office.md, "Banners"): which ones a place shows,
// their images for the page's language and the screen, and what they did (impressions reported by
// the browsers that saw them, clicks through the tracked redirect), kept per banner per Libyan day.
import { sql } from 'kysely';
import { IMPRESSIONS_MAX_IDS } from '../../../app/lib/banner-impressions.ts';
import {
  type BannerPlacement,
  type BannerSlot,
  bannerClickPath,
  bannerSlotFor,
  isHomePlacement,
  NARROW_MEDIA,
  PLACEMENT_LIMIT,
  PLACEMENT_SHAPE,
  PLACEMENT_SIZES,
  REQUIRED_SLOT,
} from '../../../app/lib/banners.ts';
import { libyaToday } from '../../../app/lib/validation/moderation.ts';
import type { DB } from '../../db/index.ts';
import type { BannerImage } from '../../db/schema.ts';
import { toJson } from '../../db/values.ts';
import { liveCondition } from './admin.ts';
import { bannerImageUrl, bannerSrcSet } from './images.ts';

/** Where a page is, for targeting: its taxonomy, its category trail (top-level first) and its city. */
export interface BannerPageContext {
  taxonomy?: string | null;
  /** Slugs of the page's category and every ancestor: a banner aimed at any of them matches. */
  categories?: readonly string[];
  city?: { slug: string } | { id: number } | null;
}

/** One banner as a page renders it. */
export interface PublicBanner {
  id: number;
  placement: BannerPlacement;
  /** The image's alternative text: the banner's title in the page's language (Arabic when it has none). */
  alt: string;
  /** The tracked redirect. */
  href: string;
  /** Whether the link leaves the site. */
  external: boolean;
  desktop: PublicImage;
  /** Null when narrow screens get the same image as wide ones. */
  mobile: PublicImage | null;
  /** How the page draws it (decided here, so the page's script carries no table of places). */
  look: {
    /** The image's `sizes`. */
    sizes: string;
    /** The media query of the narrow screens' image. */
    narrow: string;
    /** The box's shape on wide and narrow screens, as CSS aspect-ratio values. */
    ratio: string;
    narrowRatio: string;
  };
}

export interface PublicImage {
  src: string;
  srcset: string;
  width: number;
  height: number;
}

/**
 * The banners shown at `placement` on a page at `now`: switched on, within their schedule, and — for
 * the listing and ad placements — aimed at the page or at no one in particular (each of a banner's
 * taxonomy, category and city, when set, must be the page's). Home placements ignore targeting.
 * In the back office's order (position, then id), at most PLACEMENT_LIMIT of them.
 */
export async function liveBanners(
  db: DB,
  placement: BannerPlacement,
  page: BannerPageContext,
  locale: 'ar' | 'en',
  now = new Date(),
): Promise<PublicBanner[]> {
  let q = db
    .selectFrom('banners as b')
    .select(['b.id', 'b.placement', 'b.title_ar', 'b.title_en', 'b.link', 'b.images'])
    .where('b.placement', '=', placement)
    .where(liveCondition(now));
  if (!isHomePlacement(placement)) {
    const taxonomy = page.taxonomy ?? null;
    q =
      taxonomy === null
        ? q.where('b.taxonomy_id', 'is', null)
        : q.where((eb) =>
            eb.or([
              eb('b.taxonomy_id', 'is', null),
              eb('b.taxonomy_id', 'in', eb.selectFrom('taxonomies').select('id').where('slug', '=', taxonomy)),
            ]),
          );
    const trail = [...(page.categories ?? [])];
    q =
      trail.length === 0
        ? q.where('b.category_id', 'is', null)
        : q.where((eb) =>
            eb.or([
              eb('b.category_id', 'is', null),
              eb('b.category_id', 'in', eb.selectFrom('categories').select('id').where('slug', 'in', trail)),
            ]),
          );
    const city = page.city ?? null;
    q =
      city === null
        ? q.where('b.city_id', 'is', null)
        : q.where((eb) =>
            eb.or([
              eb('b.city_id', 'is', null),
              'id' in city
                ? eb('b.city_id', '=', city.id)
                : eb('b.city_id', 'in', eb.selectFrom('cities').select('id').where('slug', '=', city.slug)),
            ]),
          );
  }
  const rows = await q.orderBy('b.position').orderBy('b.id').limit(PLACEMENT_LIMIT[placement]).execute();
  return rows.map((r) => toPublic(r, locale));
}

function image(i: BannerImage): PublicImage {
  return { src: bannerImageUrl(i, 'medium'), srcset: bannerSrcSet(i), width: i.width, height: i.height };
}

function toPublic(
  r: {
    id: number;
    placement: BannerPlacement;
    title_ar: string;
    title_en: string | null;
    link: string;
    images: unknown;
  },
  locale: 'ar' | 'en',
): PublicBanner {
  const images = toJson<Partial<Record<BannerSlot, BannerImage>>>(r.images, {});
  const has = (s: BannerSlot) => !!images[s];
  const wide = bannerSlotFor(has, locale, 'desktop');
  const narrow = bannerSlotFor(has, locale, 'mobile');
  const desktop = images[wide] ?? images[REQUIRED_SLOT] ?? Object.values(images)[0];
  const mobile = narrow !== wide ? images[narrow] : undefined;
  const id = Number(r.id);
  return {
    id,
    placement: r.placement,
    alt: (locale === 'en' ? r.title_en : null) || r.title_ar,
    href: bannerClickPath(id, locale),
    external: !r.link.startsWith('/'),
    desktop: desktop ? image(desktop) : { src: '', srcset: '', width: 1, height: 1 },
    mobile: mobile ? image(mobile) : null,
    look: {
      sizes: PLACEMENT_SIZES[r.placement],
      narrow: NARROW_MEDIA,
      ratio: PLACEMENT_SHAPE[r.placement].desktop.join(' / '),
      narrowRatio: PLACEMENT_SHAPE[r.placement].mobile.join(' / '),
    },
  };
}

/** Adds figures for `day` (an upsert: the first of the day inserts, the others add to it). */
async function addFigures(db: DB, rows: { banner_id: number; impressions: number; clicks: number }[], day: string) {
  if (rows.length === 0) return;
  await db
    .insertInto('banner_stats')
    .values(rows.map((r) => ({ ...r, day })))
    .onConflict((oc) =>
      oc.columns(['banner_id', 'day']).doUpdateSet({
        impressions: sql`banner_stats.impressions + excluded.impressions`,
        clicks: sql`banner_stats.clicks + excluded.clicks`,
      }),
    )
    .execute();
}

/**
 * Counts one impression of each banner in `ids` that is shown at `now` (others — unknown, switched
 * off, out of schedule — are skipped: a stale page or a forged report adds nothing to them), in one
 * statement. Returns the ids counted.
 */
export async function countImpressions(db: DB, ids: readonly number[], now = new Date()): Promise<number[]> {
  const unique = [...new Set(ids)].slice(0, IMPRESSIONS_MAX_IDS);
  if (unique.length === 0) return [];
  const live = await db
    .selectFrom('banners as b')
    .select('b.id')
    .where('b.id', 'in', unique)
    .where(liveCondition(now))
    .execute();
  const counted = live.map((r) => Number(r.id));
  await addFigures(
    db,
    counted.map((id) => ({ banner_id: id, impressions: 1, clicks: 0 })),
    libyaToday(now),
  );
  return counted;
}

/**
 * The link of banner `id` (only ever its own stored link), counting a click when `count` says so;
 * null for no such banner. A banner that has just ended still leads to its link (a page kept a
 * little longer may show it), but only a shown one's click is counted.
 */
export async function followBanner(db: DB, id: number, count: boolean, now = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('banners as b')
    .select(['b.link', sql<number>`case when ${liveCondition(now)} then 1 else 0 end`.as('live')])
    .where('b.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  if (count && Number(row.live) === 1) {
    await addFigures(db, [{ banner_id: id, impressions: 0, clicks: 1 }], libyaToday(now));
  }
  return row.link;
}
