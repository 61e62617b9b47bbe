// An ad as its page shows it (docs/product/ads.md): the ad, its place, seller, typed details with their
// attribute definitions, photos, and similar ads; plus the once-a-day view count.
import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import { sql } from 'kysely';
import { numberFormat } from '../../app/lib/intl.ts';
import { REPORT_REASONS, type ReportInput } from '../../app/lib/validation/ads.ts';
import type { DB } from '../db/index.ts';
import type { AdStatus, AttributeOption } from '../db/schema.ts';
import { withTransaction } from '../db/transaction.ts';
import { toBool, toIso, toJson, toNumber } from '../db/values.ts';

const isoOrNull = (v: unknown) => (v === null || v === undefined ? null : toIso(v));

import { type AdImageUrls, adImageUrls, coverUrls } from './ad-images.ts';
import {
  type Attribute,
  attributeLabel,
  type CategoryPath,
  getCategoryPath,
  listCategoryAttributes,
} from './catalog.ts';
import { NotFound } from './errors.ts';
import { type ApproximateLocation, approximateLocation } from './geo.ts';
import { hitRateLimit } from './rate-limit.ts';

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
  seller: { id: string; name: string; image: string | null; member_since: string } | null;
  /**
   * The ways to reach the seller the page offers: the ad's choice, and only while the seller has a
   * confirmed phone number (read now, so an ad never shows a dead button).
   */
  contact: { phone: boolean; whatsapp: boolean };
  photos: { id: number; width: number; height: number; urls: AdImageUrls }[];
  details: AdDetail[];
}

export interface AdCard {
  id: number;
  slug: string;
  title: string;
  price: number | null;
  currency: string;
  price_type: string;
  category_slug: string;
  taxonomy_slug: string;
  city: { name_ar: string; name_en: string };
  area: { name_ar: string; name_en: string } | null;
  photo: AdImageUrls | null;
  bumped_at: string | null;
  featured: boolean;
  /** Values of the attributes flagged `shown_on_card`, in form order, in both languages. */
  attributes: { ar: string; en: string }[];
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
    ])
    .where('ads.id', '=', id)
    .executeTakeFirst();
  if (!ad) throw new NotFound('errors.not-found');
  const [path, attributes, values, photos] = await Promise.all([
    getCategoryPath(db, ad.category_slug),
    listCategoryAttributes(db, ad.category_slug),
    db.selectFrom('ad_attribute_values').selectAll().where('ad_id', '=', id).orderBy('id').execute(),
    db
      .selectFrom('ad_images')
      .select(['id', 'key', 'width', 'height'])
      .where('ad_id', '=', id)
      .orderBy('position')
      .execute(),
  ]);
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
    status: ad.status as AdStatus,
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
        }
      : null,
    contact: {
      phone: reachable && toBool(ad.contact_phone),
      whatsapp: reachable && toBool(ad.contact_whatsapp),
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

/** Published ads with what a card shows (its city, and the slugs of its URL). */
function publishedCards(db: DB) {
  return cardQuery(db).where('ads.status', '=', 'published');
}

/** Ads with what a card shows, whatever their status. */
function cardQuery(db: DB) {
  return db
    .selectFrom('ads')
    .innerJoin('cities', 'cities.id', 'ads.city_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .leftJoin('areas', 'areas.id', 'ads.area_id')
    .select([
      'ads.id',
      'ads.slug',
      'ads.title',
      'ads.price',
      'ads.currency',
      'ads.price_type',
      'ads.bumped_at',
      'ads.featured_until',
      'cities.name_ar',
      'cities.name_en',
      'areas.name_ar as area_ar',
      'areas.name_en as area_en',
      'categories.slug as category_slug',
      'taxonomies.slug as taxonomy_slug',
    ]);
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardQuery>['execute']>>[number];

/**
 * The cards of these ads (just read from a published listing), in the order of `ids`. By id
 * alone: a status condition here can lead SQLite's planner down the status index instead.
 */
export async function cardsByIds(db: DB, ids: number[]): Promise<AdCard[]> {
  if (ids.length === 0) return [];
  const rows = await cardQuery(db).where('ads.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return cardsOf(
    db,
    ids.map((id) => byId.get(id)).filter((r): r is CardRow => r !== undefined),
  );
}

/** The card of one published ad (the map's preview); null when there is no such published ad. */
export async function publishedCard(db: DB, id: number): Promise<AdCard | null> {
  const rows = await publishedCards(db).where('ads.id', '=', id).execute();
  return (await cardsOf(db, rows))[0] ?? null;
}

async function cardsOf(db: DB, rows: CardRow[]): Promise<AdCard[]> {
  const ids = rows.map((r) => r.id);
  const [cover, attributes] = await Promise.all([coverUrls(db, ids), cardAttributes(db, ids)]);
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    price: r.price === null ? null : toNumber(r.price),
    currency: r.currency,
    price_type: r.price_type,
    category_slug: r.category_slug,
    taxonomy_slug: r.taxonomy_slug,
    city: { name_ar: r.name_ar, name_en: r.name_en },
    area: r.area_ar !== null ? { name_ar: r.area_ar, name_en: r.area_en as string } : null,
    photo: cover.get(r.id) ?? null,
    bumped_at: isoOrNull(r.bumped_at),
    featured: r.featured_until !== null && new Date(r.featured_until as string).getTime() > now,
    attributes: attributes.get(r.id) ?? [],
  }));
}

const cardNumber = { ar: numberFormat('ar-EG'), en: numberFormat('en-US') };
const cardYear = {
  ar: numberFormat('ar-EG', { useGrouping: false }),
  en: numberFormat('en-US', { useGrouping: false }),
};

/**
 * What cards show of their ads' details: the values of attributes flagged `shown_on_card`, in
 * form order (option labels, numbers with their unit, a yes as the attribute's name).
 */
async function cardAttributes(db: DB, ids: number[]): Promise<Map<number, { ar: string; en: string }[]>> {
  const byAd = new Map<number, { ar: string; en: string }[]>();
  if (ids.length === 0) return byAd;
  const rows = await db
    .selectFrom('ad_attribute_values as v')
    .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
    .select([
      'v.ad_id',
      'v.attribute_id',
      'a.type',
      'a.name_ar',
      'a.name_en',
      'a.unit_ar',
      'a.unit_en',
      'v.value_option',
      'v.value_number',
      'v.value_bool',
      'v.value_text',
    ])
    .where('v.ad_id', 'in', ids)
    .where('a.shown_on_card', '=', true)
    .orderBy('v.ad_id')
    // The taxonomy's attributes first, as on the form.
    .orderBy(sql`case when a.taxonomy_id is null then 1 else 0 end`)
    .orderBy('a.position')
    .orderBy('v.id')
    .execute();
  // The option lists once per attribute, not with every row (a make's models run to hundreds).
  const withOptions = [...new Set(rows.filter((r) => r.value_option !== null).map((r) => r.attribute_id))];
  const optionsOf = new Map<number, AttributeOption[]>();
  if (withOptions.length > 0) {
    const lists = await db.selectFrom('attributes').select(['id', 'options']).where('id', 'in', withOptions).execute();
    for (const a of lists) optionsOf.set(a.id, toJson<AttributeOption[]>(a.options, []));
  }
  for (const r of rows) {
    let shown: { ar: string; en: string } | null = null;
    if (r.value_option !== null) {
      const o = optionsOf.get(r.attribute_id)?.find((x) => x.value === r.value_option);
      shown = o ? { ar: o.ar, en: o.en } : null;
    } else if (r.value_number !== null) {
      const n = Number(r.value_number);
      const f = r.type === 'year' ? cardYear : cardNumber;
      const unit = (u: string | null) => (u ? ` ${u}` : '');
      shown = { ar: f.ar.format(n) + unit(r.unit_ar), en: f.en.format(n) + unit(r.unit_en) };
    } else if (r.value_bool !== null) {
      shown = toBool(r.value_bool) ? { ar: r.name_ar, en: r.name_en } : null;
    } else if (r.value_text !== null && r.value_text.length <= 30) {
      shown = { ar: r.value_text, en: r.value_text };
    }
    if (!shown) continue;
    const list = byAd.get(r.ad_id) ?? [];
    if (list.length < 3) list.push(shown);
    byAd.set(r.ad_id, list);
  }
  return byAd;
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
export function adAudience(ad: { status: AdStatus; seller: { id: string } | null }, viewer: AdViewer) {
  const owner = !!viewer && ad.seller?.id === viewer.id;
  const staff = !!viewer?.staff;
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

export const LISTING_PAGE_SIZE = 24;

export { REPORT_REASONS };
export const REPORT_LIMIT = { name: 'report', limit: 10, windowSeconds: 60 * 60 } as const;

/**
 * A member reports an ad (ten reports an hour at most). One open report per member and ad: a
 * second one updates the first. Staff see open reports in the moderation queue.
 */
export async function reportAd(db: DB, reporterId: string, adId: number, input: ReportInput): Promise<void> {
  // Nobody reports their own ad: to its owner it is as if there were no such form.
  const ad = await db.selectFrom('ads').select('user_id').where('id', '=', adId).executeTakeFirst();
  if (!ad || ad.user_id === reporterId) throw new NotFound('errors.not-found');
  // Counted outside the transaction, so a refused report still counts.
  await hitRateLimit(db, REPORT_LIMIT, reporterId);
  await withTransaction(db, async (tx) => {
    const open = await tx
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', reporterId)
      .where('ad_id', '=', adId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open) {
      await tx
        .updateTable('reports')
        .set({ reason: input.reason, note: input.note ?? null, updated_at: new Date() })
        .where('id', '=', open.id)
        .execute();
      return;
    }
    await tx
      .insertInto('reports')
      .values({ reporter_id: reporterId, ad_id: adId, reason: input.reason, note: input.note ?? null })
      .execute();
  });
}

export interface PublicProfile {
  id: string;
  name: string;
  image: string | null;
  member_since: string;
  city: { name_ar: string; name_en: string } | null;
  bio: string | null;
  phone_verified: boolean;
  email_verified: boolean;
}

/** A member's public profile; unknown, banned or deleted members are NotFound. */
export async function loadPublicProfile(db: DB, id: string): Promise<PublicProfile> {
  const u = await db
    .selectFrom('users')
    .leftJoin('cities', 'cities.id', 'users.city_id')
    .select([
      'users.id',
      'users.name',
      'users.image',
      'users.created_at',
      'users.bio',
      'users.banned_at',
      'users.phone_number_verified',
      'users.email_verified',
      'cities.name_ar',
      'cities.name_en',
    ])
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!u || u.banned_at) throw new NotFound('errors.not-found');
  return {
    id: u.id,
    name: u.name,
    image: u.image,
    member_since: toIso(u.created_at),
    city: u.name_ar ? { name_ar: u.name_ar, name_en: u.name_en as string } : null,
    bio: u.bio,
    phone_verified: toBool(u.phone_number_verified),
    email_verified: toBool(u.email_verified),
  };
}

/** A member's published ads, newest (last bumped) first, one page, with the total and the number of pages (at least 1). */
export async function listUserAds(
  db: DB,
  userId: string,
  page: number,
): Promise<{ ads: AdCard[]; total: number; pages: number }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('ads')
      .where('ads.status', '=', 'published')
      .where('ads.user_id', '=', userId)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    publishedCards(db)
      .where('ads.user_id', '=', userId)
      .orderBy('ads.bumped_at', 'desc')
      .orderBy('ads.id', 'desc')
      .limit(USER_PAGE_SIZE)
      .offset((page - 1) * USER_PAGE_SIZE)
      .execute(),
  ]);
  const total = toNumber(count.n);
  return { ads: await cardsOf(db, rows), total, pages: Math.max(1, Math.ceil(total / USER_PAGE_SIZE)) };
}

/** Ads per page of a member's page. */
const USER_PAGE_SIZE = 24;
