// The owner's side of their ads (docs/product/ads.md): ads by status tab with counts and
// performance, and one ad's status history and views per day.

import { isOwnerTab, OWNER_TABS, type OwnerTab } from '../../app/lib/owner-tabs.ts';
import type { AdFormValues } from '../../app/lib/validation/ads.ts';
import type { DB } from '../db/index.ts';
import type { AdStatus } from '../db/schema.ts';
import { toBool, toIso, toNumber } from '../db/values.ts';
import { type AdImageUrls, adImageUrls, coverUrls } from './ad-images.ts';
import { findPendingChange } from './ads/changes.ts';
import { attributeValues } from './ads/placing.ts';
import { AD_RULES, activeAdLimit, countActiveAds } from './ads/rules.ts';
import { bumpWait } from './ads/status.ts';
import { type Attribute, type CategoryPath, getCategoryPath, listCategoryAttributes } from './catalog.ts';
import { NotFound } from './errors.ts';
import { creditsLeft } from './packages/allowance.ts';
import { type MarketSettings, readSettings } from './settings.ts';

export { isOwnerTab, OWNER_TABS, type OwnerTab };

export interface OwnAd {
  id: number;
  slug: string;
  title: string;
  status: AdStatus;
  price: number | null;
  currency: string;
  price_type: string;
  taxonomy_slug: string;
  category_slug: string;
  views: number;
  favorites: number;
  phone_reveals: number;
  rejection_reason: string | null;
  updated_at: string;
  expires_at: string | null;
  bumped_at: string | null;
  photo: AdImageUrls | null;
  /** An edit of the live ad waits for review (docs/product/ads.md, "Editing a live ad"). */
  pending_change: boolean;
  /**
   * Whether the owner can repost it now (docs/product/ads.md): an expired ad while the allowance
   * has room, a published one once its cool-down is over. `from`: when a published ad's cool-down
   * ends, if it has not yet.
   */
  repost: { possible: boolean; from: string | null };
}

const iso = (v: unknown) => (v === null || v === undefined ? null : toIso(v));

export async function ownAdCounts(db: DB, userId: string): Promise<Record<OwnerTab, number>> {
  const rows = await db
    .selectFrom('ads')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute();
  const byStatus = new Map(rows.map((r) => [r.status, toNumber(r.n)]));
  return Object.fromEntries(
    Object.entries(OWNER_TABS).map(([tab, statuses]) => [
      tab,
      statuses.reduce((n, s) => n + (byStatus.get(s) ?? 0), 0),
    ]),
  ) as Record<OwnerTab, number>;
}

function ownAdsQuery(db: DB, userId: string) {
  return db
    .selectFrom('ads')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .select([
      'ads.id',
      'ads.slug',
      'ads.title',
      'ads.status',
      'ads.price',
      'ads.currency',
      'ads.price_type',
      'ads.views',
      'ads.favorites_count',
      'ads.phone_reveals',
      'ads.rejection_reason',
      'ads.updated_at',
      'ads.expires_at',
      'ads.bumped_at',
      'categories.slug as category_slug',
      'taxonomies.slug as taxonomy_slug',
    ])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('ad_pending_changes as pc').select('pc.id').whereRef('pc.ad_id', '=', 'ads.id'))
        .as('pending_change'),
    )
    .where('ads.user_id', '=', userId);
}

async function withCovers(
  db: DB,
  userId: string,
  rows: Awaited<ReturnType<ReturnType<typeof ownAdsQuery>['execute']>>,
  now = new Date(),
): Promise<OwnAd[]> {
  const [cover, allowance] = await Promise.all([
    coverUrls(
      db,
      rows.map((r) => r.id),
    ),
    repostAllowance(db, userId, {
      renew: rows.some((r) => r.status === 'expired'),
      bump: rows.some((r) => r.status === 'published'),
      now,
    }),
  ]);
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    status: r.status,
    price: r.price === null ? null : toNumber(r.price),
    currency: r.currency,
    price_type: r.price_type,
    taxonomy_slug: r.taxonomy_slug,
    category_slug: r.category_slug,
    views: toNumber(r.views),
    favorites: toNumber(r.favorites_count),
    phone_reveals: toNumber(r.phone_reveals),
    rejection_reason: r.rejection_reason,
    updated_at: toIso(r.updated_at),
    expires_at: iso(r.expires_at),
    bumped_at: iso(r.bumped_at),
    photo: cover.get(r.id) ?? null,
    pending_change: toBool(r.pending_change),
    repost: repostWhen(repostState(r.status, iso(r.bumped_at), allowance, now)),
  }));
}

export const OWNER_PAGE_SIZE = 20;

/** One tab of the member's ads, most recently changed first. */
export async function listOwnAds(db: DB, userId: string, tab: OwnerTab, page = 1): Promise<OwnAd[]> {
  const rows = await ownAdsQuery(db, userId)
    .where('ads.status', 'in', [...OWNER_TABS[tab]])
    .orderBy('ads.updated_at', 'desc')
    .orderBy('ads.id', 'desc')
    .limit(OWNER_PAGE_SIZE)
    .offset((page - 1) * OWNER_PAGE_SIZE)
    .execute();
  return withCovers(db, userId, rows);
}

export interface OwnAdDetail extends OwnAd {
  history: { id: number; from: string | null; to: string; reason: string | null; at: string; by_staff: boolean }[];
  /** The last 30 days, oldest first, with zero days included. */
  views_per_day: { day: string; views: number; phone_reveals: number }[];
}

/** The member's own ad (someone else's or a deleted one: NotFound). */
export async function ownAd(db: DB, userId: string, id: number): Promise<OwnAd> {
  const ad = await findOwnAd(db, userId, id);
  if (!ad) throw new NotFound('errors.not-found');
  return ad;
}

/** The member's own ad (not deleted), or null when there is none of theirs with this id. */
export async function findOwnAd(db: DB, userId: string, id: number): Promise<OwnAd | null> {
  const row = await ownAdsQuery(db, userId)
    .where('ads.id', '=', id)
    .where('ads.status', '!=', 'deleted')
    .executeTakeFirst();
  if (!row) return null;
  const [ad] = await withCovers(db, userId, [row]);
  return ad ?? null;
}

/** The member's own ad with its history and views. */
export async function ownAdDetail(db: DB, userId: string, id: number, now = new Date()): Promise<OwnAdDetail> {
  const ad = await ownAd(db, userId, id);
  const since = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  const [history, views] = await Promise.all([
    db
      .selectFrom('ad_status_history')
      .select(['id', 'from_status', 'to_status', 'reason', 'created_at', 'actor_id'])
      .where('ad_id', '=', id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('ad_views')
      .select(['day', 'views', 'phone_reveals'])
      .where('ad_id', '=', id)
      .where('day', '>=', since)
      .execute(),
  ]);
  const byDay = new Map(views.map((v) => [v.day, v]));
  const days = Array.from({ length: 30 }, (_, i) =>
    new Date(now.getTime() - (29 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  return {
    ...ad,
    history: history.map((h) => ({
      id: h.id,
      from: h.from_status,
      to: h.to_status,
      reason: h.reason,
      at: toIso(h.created_at),
      by_staff: h.actor_id !== null && h.actor_id !== userId,
    })),
    views_per_day: days.map((day) => ({
      day,
      views: toNumber(byDay.get(day)?.views),
      phone_reveals: toNumber(byDay.get(day)?.phone_reveals),
    })),
  };
}

export interface EditableAd {
  ad: OwnAd;
  /** The fields of the pending change the form opens with (empty when none waits). */
  reviewed: string[];
  path: CategoryPath;
  attributes: Attribute[];
  values: AdFormValues;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The member's own ad as the edit form opens with it: its category's attributes and its values. */
export async function editableAd(db: DB, userId: string, id: number): Promise<EditableAd> {
  const ad = await ownAd(db, userId, id);
  const row = await db
    .selectFrom('ads')
    .select([
      'title',
      'description',
      'price',
      'price_type',
      'currency',
      'city_id',
      'area_id',
      'lat',
      'lng',
      'contact_phone',
      'contact_whatsapp',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const [path, attributes, photos] = await Promise.all([
    getCategoryPath(db, ad.category_slug),
    listCategoryAttributes(db, ad.category_slug),
    db.selectFrom('ad_images').select(['id', 'key']).where('ad_id', '=', id).orderBy('position').execute(),
  ]);
  const live = await attributeValues(db, id, attributes);
  // With a pending change, the form opens on it: editing again replaces it.
  const change = await findPendingChange(db, id);
  const proposal = change?.proposal;
  const values = proposal
    ? {
        ...proposal,
        city_id: proposal.city,
        area_id: proposal.area ?? null,
        lat: proposal.lat ?? null,
        lng: proposal.lng ?? null,
        price: proposal.price ?? null,
      }
    : row;
  const attrs = proposal ? proposal.attrs : live;
  const photoRows = proposal
    ? await db
        .selectFrom('ad_images')
        .select(['id', 'key'])
        .where('id', 'in', proposal.photos.length > 0 ? proposal.photos : [0])
        .where('user_id', '=', userId)
        .execute()
        .then((rows) => proposal.photos.flatMap((pid) => rows.filter((r) => Number(r.id) === pid)))
    : photos;
  const now = Date.now();
  return {
    ad,
    path,
    attributes,
    reviewed: change ? Object.keys(change.changes) : [],
    values: {
      title: values.title,
      description: values.description,
      price_type: values.price_type,
      price: text(values.price),
      currency: values.currency,
      city: text(values.city_id),
      area: text(values.area_id),
      lat: text(values.lat),
      lng: text(values.lng),
      contact_phone: toBool(values.contact_phone),
      contact_whatsapp: toBool(values.contact_whatsapp),
      attrs: Object.fromEntries(
        Object.entries(attrs).map(([key, v]) => [key, typeof v === 'boolean' || Array.isArray(v) ? v : text(v)]),
      ) as AdFormValues['attrs'],
      photos: photoRows.map((p) => ({ id: p.id, thumb: adImageUrls(p).thumb, at: now })),
    },
  };
}

/**
 * What a repost of the member's ad would do, for the confirmation page (docs/product/ads.md): renew an
 * expired ad (one place of the allowance) or bump a published one (once per cool-down, or sooner with
 * one of the member's package reposts), or why not.
 */
export interface RepostQuote {
  kind: 'renew' | 'bump' | null;
  /** Why the repost cannot happen now (an error code, `repost-cooldown:<days>` with the days left). */
  refusal: string | null;
  /** The bump is within the cool-down and spends one of the member's package reposts. */
  usesRepost: boolean;
  /** Package reposts the member has left. */
  reposts: number;
  active: number;
  limit: number;
  cooldownDays: number;
  lastBumpAt: string | null;
  nextBumpAt: string | null;
  lifetimeDays: number;
}

/** What a repost would do now and, when it cannot, why and (for a bump) from when. */
interface RepostState {
  kind: 'renew' | 'bump' | null;
  refusal: string | null;
  nextBumpAt: string | null;
  usesRepost: boolean;
}

/** The member's active ads against their allowance, and their package reposts left. */
interface RepostAllowance {
  active: number;
  limit: number;
  reposts: number;
  /** The settings in force (server/domain/settings.ts): the cool-down and the lifetime. */
  rules: MarketSettings;
}

async function repostAllowance(
  db: DB,
  userId: string,
  need: { renew: boolean; bump: boolean; now: Date },
): Promise<RepostAllowance> {
  const [active, limit, reposts, rules] = await Promise.all([
    need.renew ? countActiveAds(db, userId) : 0,
    need.renew ? activeAdLimit(db, userId, need.now) : AD_RULES.freeActiveAds,
    need.bump ? creditsLeft(db, userId, 'reposts', need.now) : 0,
    readSettings(db),
  ]);
  return { active, limit, reposts, rules };
}

/**
 * The repost rule (the settings in force, server/domain/settings.ts, with the member's packages) for an ad of
 * `status` last bumped at `bumpedAt`.
 */
function repostState(status: AdStatus, bumpedAt: string | null, allowance: RepostAllowance, now: Date): RepostState {
  if (status === 'expired') {
    const full = allowance.active >= allowance.limit;
    return {
      kind: 'renew',
      refusal: full ? `allowance-exceeded:${allowance.limit}` : null,
      nextBumpAt: null,
      usesRepost: false,
    };
  }
  if (status !== 'published') return { kind: null, refusal: 'ad-not-repostable', nextBumpAt: null, usesRepost: false };
  const wait = bumpWait(bumpedAt, now, allowance.rules.repostCooldownDays);
  const waiting = wait > 0;
  const usesRepost = waiting && allowance.reposts > 0;
  return {
    kind: 'bump',
    nextBumpAt: waiting ? new Date(now.getTime() + wait).toISOString() : null,
    refusal: waiting && !usesRepost ? `repost-cooldown:${Math.ceil(wait / 86_400_000)}` : null,
    usesRepost,
  };
}

const repostWhen = (state: RepostState): OwnAd['repost'] => ({
  possible: state.kind !== null && state.refusal === null,
  from: state.refusal === null ? null : state.nextBumpAt,
});

export async function repostQuote(db: DB, userId: string, ad: OwnAd, now = new Date()): Promise<RepostQuote> {
  const allowance = await repostAllowance(db, userId, { renew: true, bump: true, now });
  return {
    ...repostState(ad.status, ad.bumped_at, allowance, now),
    reposts: allowance.reposts,
    active: allowance.active,
    limit: allowance.limit,
    cooldownDays: allowance.rules.repostCooldownDays,
    lastBumpAt: ad.bumped_at,
    lifetimeDays: allowance.rules.lifetimeDays,
  };
}

/** Whether the member may feature their ad now with a package's featured ad, and until when it is featured. */
export async function featureState(db: DB, userId: string, adId: number, now = new Date()) {
  const [ad, credits] = await Promise.all([
    db
      .selectFrom('ads')
      .select(['featured_until'])
      .where('id', '=', adId)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    creditsLeft(db, userId, 'featured', now),
  ]);
  const until = ad?.featured_until ? toIso(ad.featured_until) : null;
  return {
    /** Featured ads the member's packages have left. */
    credits,
    featuredUntil: until && until > now.toISOString() ? until : null,
    days: AD_RULES.featureDays,
  };
}
