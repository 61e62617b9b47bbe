// The ad page (docs/product/ads.md): the ad with its details, who may see it, when a view counts,
// the seller's number through the reveal rule, and similar ads.

import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import { sql } from 'kysely';
import type { BadgeChipData } from '../../../app/lib/badges.ts';
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { type AdImageUrls, adImageUrls } from '../ad-images.ts';
import { badgesOfCompanies, badgesOfUsers } from '../badges.ts';
import {
  type Attribute,
  attributeLabel,
  type CategoryPath,
  getCategoryPath,
  listCategoryAttributes,
} from '../catalog.ts';
import { type CompanyMark, companyMarks } from '../companies/companies.ts';
import { NotFound } from '../errors.ts';
import { type ApproximateLocation, approximateLocation } from '../geo.ts';
import { hitRateLimit } from '../rate-limit.ts';
import { type AdCard, cardsOf, publishedCards } from './cards.ts';

const isoOrNull = (v: unknown) => (v === null || v === undefined ? null : toIso(v));

export interface AdDetail {
  label: Pick<Attribute, 'key' | 'name_ar' | 'name_en' | 'type' | 'unit_ar' | 'unit_en'>;
  /** Option labels for select types; the value otherwise. */
  values: { ar: string; en: string }[];
  shown_on_card: boolean;
}

export interface AdView {
  id: number;
  slug: string;
  title: string;
  description: string;
  price: number | null;
  currency: string;
  price_type: string;
  status: AdStatus;
  /** The owner is banned: only staff may see it while the ban lasts (./visibility.ts). */
  hidden: boolean;
  rejection_reason: string | null;
  featured: boolean;
  published_at: string | null;
  expires_at: string | null;
  updated_at: string;
  views: number;
  path: CategoryPath;
  city: { id: number; name_ar: string; name_en: string; lat: number; lng: number };
  area: { name_ar: string; name_en: string; lat: number; lng: number } | null;
  /** Where the map shows the ad: approximate, never the owner's pin. */
  location: ApproximateLocation;
  /** Never the seller's phone number: that reaches a visitor only through `revealSellerPhone`. */
  seller: {
    id: string;
    name: string;
    image: string | null;
    member_since: string;
    /** The member's badges (server/domain/badges.ts). */
    badges: BadgeChipData[];
  } | null;
  /** The owner's company, with its badges: the page shows it and links to its page. */
  company: (CompanyMark & { badges: BadgeChipData[] }) | null;
  /**
   * The ways to reach the seller the page offers: the ad's choice, and only while the seller has a
   * confirmed phone number (read now, so an ad never shows a dead button); a chat
   * (server/domain/chats/) whenever the seller is a member in good standing, whatever the ad chose.
   */
  contact: { phone: boolean; whatsapp: boolean; chat: boolean };
  photos: { id: number; width: number; height: number; urls: AdImageUrls }[];
  details: AdDetail[];
}

/** The ad with everything its page needs; NotFound for unknown ids. Deleted ads come back too (410). */
export async function loadAdView(db: DB, id: number): Promise<AdView> {
  const ad = await db
    .selectFrom('ads')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .innerJoin('cities', 'cities.id', 'ads.city_id')
    .leftJoin('areas', 'areas.id', 'ads.area_id')
    .leftJoin('users', 'users.id', 'ads.user_id')
    .select([
      'ads.id',
      'ads.slug',
      'ads.title',
      'ads.description',
      'ads.price',
      'ads.currency',
      'ads.price_type',
      'ads.status',
      'ads.rejection_reason',
      'ads.featured_until',
      'ads.published_at',
      'ads.expires_at',
      'ads.updated_at',
      'ads.views',
      'ads.contact_phone',
      'ads.contact_whatsapp',
      'categories.slug as category_slug',
      'cities.id as city_id',
      'cities.name_ar as city_ar',
      'cities.name_en as city_en',
      'ads.lat',
      'ads.lng',
      'cities.lat as city_lat',
      'cities.lng as city_lng',
      'areas.name_ar as area_ar',
      'areas.name_en as area_en',
      'areas.lat as area_lat',
      'areas.lng as area_lng',
      'users.id as seller_id',
      'users.name as seller_name',
      'users.image as seller_image',
      'users.created_at as seller_since',
      'users.phone_number as seller_phone',
      'users.phone_number_verified as seller_phone_verified',
      'users.banned_at as seller_banned',
      'ads.company_id',
    ])
    .where('ads.id', '=', id)
    .executeTakeFirst();
  if (!ad) throw new NotFound('errors.not-found');
  const [path, attributes, values, photos, companies, userBadges, companyBadges] = await Promise.all([
    getCategoryPath(db, ad.category_slug),
    listCategoryAttributes(db, ad.category_slug),
    db.selectFrom('ad_attribute_values').selectAll().where('ad_id', '=', id).orderBy('id').execute(),
    db
      .selectFrom('ad_images')
      .select(['id', 'key', 'width', 'height'])
      .where('ad_id', '=', id)
      .orderBy('position')
      .execute(),
    companyMarks(db, ad.company_id === null ? [] : [ad.company_id]),
    badgesOfUsers(db, ad.seller_id ? [ad.seller_id] : []),
    badgesOfCompanies(db, ad.company_id === null ? [] : [ad.company_id]),
  ]);
  const company = ad.company_id === null ? undefined : companies.get(ad.company_id);
  const area =
    ad.area_ar !== null
      ? { name_ar: ad.area_ar, name_en: ad.area_en as string, lat: ad.area_lat as number, lng: ad.area_lng as number }
      : null;
  const details: AdDetail[] = [];
  for (const a of attributes) {
    const rows = values.filter((v) => v.attribute_id === a.id);
    if (rows.length === 0) continue;
    const shown = rows.map((v) => {
      if (v.value_option !== null) {
        const o = a.options.find((x) => x.value === v.value_option);
        return { ar: o?.ar ?? v.value_option, en: o?.en ?? v.value_option };
      }
      if (v.value_bool !== null)
        return { ar: toBool(v.value_bool) ? 'نعم' : 'لا', en: toBool(v.value_bool) ? 'Yes' : 'No' };
      const raw = String(v.value_number ?? v.value_date ?? v.value_text ?? '');
      return { ar: raw, en: raw };
    });
    details.push({
      label: attributeLabel(a),
      values: shown,
      shown_on_card: a.shown_on_card,
    });
  }
  const featuredUntil = ad.featured_until ? new Date(ad.featured_until as string) : null;
  const seller = ad.seller_id && !ad.seller_banned;
  const reachable = !!seller && hasConfirmedPhone(ad.seller_phone, ad.seller_phone_verified);
  return {
    id: ad.id,
    slug: ad.slug,
    title: ad.title,
    description: ad.description,
    price: ad.price === null ? null : toNumber(ad.price),
    currency: ad.currency,
    price_type: ad.price_type,
    status: ad.status,
    hidden: !!ad.seller_banned,
    rejection_reason: ad.rejection_reason,
    featured: !!featuredUntil && featuredUntil.getTime() > Date.now(),
    published_at: isoOrNull(ad.published_at),
    expires_at: isoOrNull(ad.expires_at),
    updated_at: toIso(ad.updated_at),
    views: toNumber(ad.views),
    path,
    city: { id: ad.city_id, name_ar: ad.city_ar, name_en: ad.city_en, lat: ad.city_lat, lng: ad.city_lng },
    area,
    location: approximateLocation(
      ad.id,
      { lat: ad.lat === null ? null : Number(ad.lat), lng: ad.lng === null ? null : Number(ad.lng) },
      area,
      { lat: ad.city_lat, lng: ad.city_lng },
    ),
    seller: seller
      ? {
          id: ad.seller_id as string,
          name: ad.seller_name as string,
          image: ad.seller_image,
          member_since: toIso(ad.seller_since),
          badges: userBadges.get(ad.seller_id as string) ?? [],
        }
      : null,
    company: company ? { ...company, badges: companyBadges.get(company.id) ?? [] } : null,
    contact: {
      phone: reachable && toBool(ad.contact_phone),
      whatsapp: reachable && toBool(ad.contact_whatsapp),
      chat: !!seller,
    },
    photos: photos.map((p) => ({ id: p.id, width: p.width, height: p.height, urls: adImageUrls(p) })),
    details,
  };
}

/** Published ads of the same category, same city first, newest first; never the ad itself. */
export async function similarAds(db: DB, ad: Pick<AdView, 'id' | 'path' | 'city'>, limit = 6): Promise<AdCard[]> {
  // Two walks down the category's listing index, newest first: the same city, then (if that is not
  // enough) the other cities. One query ordered by "same city first" would sort every published ad
  // of the category on each ad page view.
  const newest = () =>
    publishedCards(db)
      .where('ads.category_id', '=', ad.path.category.id)
      .where('ads.id', '!=', ad.id)
      .orderBy('ads.bumped_at', 'desc')
      .orderBy('ads.id', 'desc');
  const near = await newest().where('ads.city_id', '=', ad.city.id).limit(limit).execute();
  const far =
    near.length < limit
      ? await newest()
          .where('ads.city_id', '!=', ad.city.id)
          .limit(limit - near.length)
          .execute()
      : [];
  return cardsOf(db, [...near, ...far]);
}

/** Statuses anyone may see; the others only the owner and staff (and never indexed). */
const PUBLIC_STATUSES: ReadonlySet<AdStatus> = new Set<AdStatus>(['published', 'sold', 'expired']);

/** Who looks at an ad page: a member (with whether they may see every ad as staff), or nobody signed in. */
export type AdViewer = { id: string; staff: boolean } | null;

/**
 * What the viewer is to the ad: its owner, staff, and whether the page is theirs to see. Published,
 * sold and expired ads are public; a deleted one is public too (it answers 410 "gone", with similar
 * ads); drafts, pending and rejected ads only to their owner and staff.
 */
export function adAudience(
  ad: { status: AdStatus; seller: { id: string } | null; hidden?: boolean },
  viewer: AdViewer,
) {
  const owner = !!viewer && ad.seller?.id === viewer.id;
  const staff = !!viewer?.staff;
  // A banned member's ad is staff's alone (./visibility.ts); its owner cannot sign in anyway.
  if (ad.hidden) return { owner, staff, visible: staff };
  return { owner, staff, visible: PUBLIC_STATUSES.has(ad.status) || ad.status === 'deleted' || owner || staff };
}

/** Whether a status is one the public sees (what search engines may index). */
export const isPublicStatus = (status: AdStatus) => PUBLIC_STATUSES.has(status);

/**
 * One view of an ad page, counted when it should be: the ad is published, the visitor is not its
 * owner and not a bot. Once per visitor per ad per UTC day (`countView`); the visitor is the member,
 * else their address and browser together. Returns whether it counted.
 */
export async function recordAdView(
  db: DB,
  ad: { id: number; status: AdStatus; sellerId: string | null },
  visitor: { userId: string | null; ip: string; userAgent: string },
  now = new Date(),
): Promise<boolean> {
  if (ad.status !== 'published' || (visitor.userId !== null && visitor.userId === ad.sellerId)) return false;
  if (isbot(visitor.userAgent)) return false;
  const key = visitor.userId ? `user:${visitor.userId}` : `${visitor.ip}|${visitor.userAgent}`;
  return countView(db, ad.id, key, now);
}

/**
 * Counts a view once per visitor per ad per UTC day (the visitor key is hashed). Returns whether it
 * counted. Pages count through `recordAdView`, which says when a view counts at all.
 */
export async function countView(db: DB, adId: number, visitor: string, now = new Date()): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const key = createHash('sha256').update(visitor).digest('base64url').slice(0, 32);
  return withTransaction(db, async (tx) => {
    const inserted = await tx
      .insertInto('ad_view_visitors')
      .values({ ad_id: adId, day, visitor: key })
      .onConflict((oc) => oc.doNothing())
      .returning('ad_id')
      .executeTakeFirst();
    if (!inserted) return false;
    await tx
      .insertInto('ad_views')
      .values({ ad_id: adId, day, views: 1 })
      .onConflict((oc) => oc.columns(['ad_id', 'day']).doUpdateSet((eb) => ({ views: eb('ad_views.views', '+', 1) })))
      .execute();
    await tx.updateTable('ads').set({ views: sql`views + 1` }).where('id', '=', adId).execute();
    return true;
  });
}

/** A member's number counts only once confirmed by SMS code. */
export const hasConfirmedPhone = (phone: string | null | undefined, verified: unknown): phone is string =>
  !!phone && toBool(verified);

/** Numbers a member may have revealed (calls and WhatsApp together) per hour. */
export const PHONE_REVEAL_LIMIT = { name: 'reveal-phone', limit: 30, windowSeconds: 60 * 60 } as const;

/**
 * The seller's phone number for a signed-in member who asked for it on the ad page, to call or to
 * open WhatsApp: only for a published ad that offers that channel and whose seller (not banned)
 * has a confirmed number; anything else is NotFound. Counted against the member's limit
 * (TooManyRequests past it) and as one of the ad's phone reveals.
 */
export async function revealSellerPhone(
  db: DB,
  adId: number,
  viewerId: string,
  channel: 'phone' | 'whatsapp',
  now = new Date(),
): Promise<string> {
  const ad = await db
    .selectFrom('ads')
    .innerJoin('users', 'users.id', 'ads.user_id')
    .select([
      'ads.status',
      'ads.contact_phone',
      'ads.contact_whatsapp',
      'users.phone_number',
      'users.phone_number_verified',
      'users.banned_at',
    ])
    .where('ads.id', '=', adId)
    .executeTakeFirst();
  if (!ad) throw new NotFound('errors.not-found');
  const offered = channel === 'phone' ? ad.contact_phone : ad.contact_whatsapp;
  if (
    ad.status !== 'published' ||
    ad.banned_at ||
    !toBool(offered) ||
    !hasConfirmedPhone(ad.phone_number, ad.phone_number_verified)
  ) {
    throw new NotFound('errors.not-found');
  }
  await hitRateLimit(db, PHONE_REVEAL_LIMIT, viewerId, now.getTime());
  await countPhoneReveal(db, adId, now);
  return ad.phone_number;
}

/** Counts a phone reveal (rate-limited by the caller), in total and for the day. */
export async function countPhoneReveal(db: DB, adId: number, now = new Date()): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await withTransaction(db, async (tx) => {
    await tx
      .insertInto('ad_views')
      .values({ ad_id: adId, day, views: 0, phone_reveals: 1 })
      .onConflict((oc) =>
        oc.columns(['ad_id', 'day']).doUpdateSet((eb) => ({ phone_reveals: eb('ad_views.phone_reveals', '+', 1) })),
      )
      .execute();
    await tx.updateTable('ads').set({ phone_reveals: sql`phone_reveals + 1` }).where('id', '=', adId).execute();
  });
}
