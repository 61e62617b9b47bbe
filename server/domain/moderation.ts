// The moderation queue of the back office (docs/product-notes.md, "Moderation"): the filterable
// list of ads, one ad with everything a moderator needs to decide, and featuring. Approving,
// rejecting and deleting are moves of the status machine (moveAd in ./ads.ts), which write history,
// revision, notification and counters themselves.
import { type ExpressionBuilder, sql } from 'kysely';
import { FEATURABLE, QUEUE_TABS } from '../../app/lib/moderation.ts';
import { isPlaceholderEmail } from '../auth/placeholder-email.ts';
import type { DB } from '../db/index.ts';
import type { AdStatus, AttributeOption, AttributeType } from '../db/schema.ts';
import { withTransaction } from '../db/transaction.ts';
import { toBool, toIso, toJson, toNumber } from '../db/values.ts';
import { type AdImageUrls, adImageUrls } from './ad-images.ts';
import { type Cursor, keysetPage } from './admin/keyset.ts';
import { announceAdChanges } from './ads/bookkeeping.ts';
import { findPendingChange } from './ads/changes.ts';
import { adStatusCounts, zeroCounts } from './ads/counts.ts';
import type { Actor } from './ads/rules.ts';
import { type AdMove, moveAd } from './ads/status.ts';
import { recordRevision } from './audit.ts';
import { Invalid, NotFound } from './errors.ts';

/** The queue's status tabs, in order (shared with the page that builds its links). */
export const QUEUE_STATUSES: AdStatus[] = QUEUE_TABS;
export const QUEUE_PAGE_SIZE = 20;

export interface Named {
  slug: string;
  name_ar: string;
  name_en: string;
}

export interface QueueFilters {
  status: AdStatus;
  taxonomyId?: number;
  cityId?: number;
  /** Only ads with at least one open report. */
  reported?: boolean;
  /** Only this member's ads. */
  ownerId?: string;
  /** Only ads with a pending change (docs/product/ads.md, "Editing a live ad"), oldest change first. */
  changes?: boolean;
  /** Where the page starts: the `next` of the page before (server/domain/admin/keyset.ts); none: the first. */
  after?: Cursor | null;
  perPage?: number;
}

export interface QueueItem {
  id: number;
  title: string;
  slug: string;
  status: AdStatus;
  price: number | null;
  currency: string;
  price_type: string;
  created_at: string;
  updated_at: string;
  /** When the ad (last) entered review; the pending tab's order. Null when it never did. */
  queued_at: string | null;
  featured_until: string | null;
  rejection_reason: string | null;
  taxonomy: Named;
  /** Top-level category first, the ad's own category last. */
  categories: Named[];
  city: Omit<Named, 'slug'>;
  owner: { id: string; name: string } | null;
  /** The first photo's URLs, or null. */
  photo: AdImageUrls | null;
  open_reports: number;
  /** When the owner's pending change was last saved, or null when none waits. */
  change_at: string | null;
}

export interface QueuePage {
  items: QueueItem[];
  /** The cursor of the next page, or null on the last one. */
  next: string | null;
  /** Ads in this tab under the filters. */
  total: number;
  perPage: number;
  /** Ads per status under the same taxonomy, city, report and owner filters. */
  counts: Record<AdStatus, number>;
  /** Ads with a pending change under the same filters (the "Changes" tab). */
  changes: number;
}

// Correlated subqueries on the ad aliased `a`, used in queries with different joins.
type Eb = ExpressionBuilder<any, any>;

const openReports = (eb: Eb) =>
  eb.selectFrom('reports as r').whereRef('r.ad_id', '=', 'a.id').where('r.status', '=', 'open');

/** When the ad last entered review (the newest history row moving it to pending). */
const queuedAt = (eb: Eb) =>
  eb
    .selectFrom('ad_status_history as h')
    .select((h) => h.fn.max('h.created_at').as('q'))
    .whereRef('h.ad_id', '=', 'a.id')
    .where('h.to_status', '=', 'pending');

/**
 * The ads with an open report, as a set the query is driven from (`a.id in (…)`): a few thousand
 * ids read from their own index, each one seek of `ads` (an EXISTS per ad would read them all).
 */
const reportedIds = (eb: Eb) =>
  eb
    .selectFrom('reports as r')
    .select('r.ad_id')
    // A literal, so SQLite matches the partial index of open reports (`reports_open_ad`, migration 0028).
    .where(sql.ref('r.status'), '=', sql.lit('open'))
    .where('r.ad_id', 'is not', null);

const changedIds = (eb: Eb) => eb.selectFrom('ad_pending_changes as pc').select('pc.ad_id');

/** Each category's trail from its top-level ancestor, loaded one level at a time (depth is small). */
async function categoryTrails(db: DB, ids: number[]): Promise<Map<number, Named[]>> {
  const byId = new Map<number, Named & { parent_id: number | null }>();
  let wanted = [...new Set(ids)];
  while (wanted.length > 0) {
    const rows = await db
      .selectFrom('categories')
      .select(['id', 'parent_id', 'slug', 'name_ar', 'name_en'])
      .where('id', 'in', wanted)
      .execute();
    for (const r of rows) byId.set(r.id, r);
    wanted = [...new Set(rows.map((r) => r.parent_id).filter((p): p is number => p !== null && !byId.has(p)))];
  }
  const trails = new Map<number, Named[]>();
  for (const id of new Set(ids)) {
    const trail: Named[] = [];
    let at = byId.get(id);
    // The length bound only guards against a (corrupt) cycle.
    while (at && trail.length < 32) {
      trail.unshift({ slug: at.slug, name_ar: at.name_ar, name_en: at.name_en });
      at = at.parent_id === null ? undefined : byId.get(at.parent_id);
    }
    trails.set(id, trail);
  }
  return trails;
}

/**
 * The tabs' counts. Without the report and owner filters they are sums of the counters kept with
 * the ads (`ad_counts`, migration 0028: exact, a few thousand rows whatever the number of ads);
 * with them, the filtered ads are few (a member's ads, the ads with an open report) and counted
 * as they are. The "Changes" tab counts the pending changes, a table as small as the queue.
 */
async function queueCounts(db: DB, filters: QueueFilters) {
  const { taxonomyId, cityId, reported, ownerId } = filters;
  const narrowed = (eb: Eb) => {
    const terms = [];
    if (taxonomyId !== undefined) terms.push(eb('a.taxonomy_id', '=', taxonomyId));
    if (cityId !== undefined) terms.push(eb('a.city_id', '=', cityId));
    if (ownerId) terms.push(eb('a.user_id', '=', ownerId));
    if (reported) terms.push(eb('a.id', 'in', reportedIds(eb)));
    return eb.and(terms);
  };
  const [counts, changeRow] = await Promise.all([
    reported || ownerId
      ? db
          .selectFrom('ads as a')
          .select(['a.status', (eb) => eb.fn.countAll().as('n')])
          .where(narrowed)
          .groupBy('a.status')
          .execute()
          .then((rows) => {
            const out = zeroCounts();
            for (const r of rows) out[r.status] = toNumber(r.n);
            return out;
          })
      : adStatusCounts(db, { taxonomyId, cityId }),
    db
      .selectFrom('ads as a')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => eb.and([eb('a.id', 'in', changedIds(eb)), eb('a.status', '=', 'published'), narrowed(eb)]))
      .executeTakeFirst(),
  ]);
  return { counts, changes: toNumber(changeRow?.n) };
}

/**
 * A page of the queue, by keyset (server/domain/admin/keyset.ts). The pending tab is a fair queue:
 * the ad waiting longest comes first (by when it last entered review, `ads.queued_at`, so a
 * resubmitted ad keeps its place in time; a range of the pending ads' own index); every other tab
 * shows the newest ads first (a range of `ads_status_created`), the Changes tab the oldest change.
 */
export async function listModerationQueue(db: DB, filters: QueueFilters): Promise<QueuePage> {
  const perPage = filters.perPage ?? QUEUE_PAGE_SIZE;
  const { taxonomyId, cityId, reported, changes, ownerId } = filters;
  const status = changes ? 'published' : filters.status;
  // The status is written into the SQL as a literal (below): only the queue's own tabs get there.
  if (!QUEUE_STATUSES.includes(status)) throw new Invalid({ status: ['invalid'] });
  // Counts from the counters come first (a few rows): a tab they say is empty is not read at all (a
  // filter that matches no ad would otherwise walk the whole tab looking for one). Counts made on
  // the fly (reported, owner) run beside the page instead.
  const counting = queueCounts(db, filters);
  const known = !reported && !ownerId ? await counting : null;
  const empty = known !== null && (changes ? known.changes : known.counts[status]) === 0;

  // The page's ids first, from the indexes alone (sort key and id: the pending ads' own index, or a
  // status's by age, with the filters' own indexes), then those ads' details: a filter that skips
  // thousands of ads to fill a page never reads their rows.
  const order = changes
    ? { column: 'pc.updated_at', direction: 'asc' as const }
    : status === 'pending'
      ? { column: 'a.queued_at', direction: 'asc' as const }
      : { column: 'a.created_at', direction: 'desc' as const };
  const keys = db
    .selectFrom('ads as a')
    .$if(!!changes, (q) => q.innerJoin('ad_pending_changes as pc', 'pc.ad_id', 'a.id'))
    // A literal, so SQLite matches the pending tab's partial indexes (`ads_queue…`, migration 0028).
    .where(sql.ref('a.status'), '=', sql.lit(status))
    .$if(taxonomyId !== undefined, (q) => q.where('a.taxonomy_id', '=', taxonomyId as number))
    .$if(cityId !== undefined, (q) => q.where('a.city_id', '=', cityId as number))
    .$if(!!ownerId, (q) => q.where('a.user_id', '=', ownerId as string))
    .$if(!!reported, (q) => q.where((eb) => eb('a.id', 'in', reportedIds(eb))))
    .select(['a.id', sql<unknown>`${sql.ref(order.column)}`.as('sort_key')]);
  const [{ counts, changes: changeCount }, { rows: page, next }] = await Promise.all([
    counting,
    empty
      ? { rows: [], next: null }
      : keysetPage(keys, {
          column: order.column,
          id: 'a.id',
          direction: order.direction,
          cursor: filters.after ?? null,
          limit: perPage,
          keyOf: (r) => ({ value: toIso(r.sort_key), id: Number(r.id) }),
        }),
  ]);
  const total = changes ? changeCount : (counts[status] ?? 0);
  const ids = page.map((r) => Number(r.id));
  const found =
    ids.length === 0
      ? []
      : await db
          .selectFrom('ads as a')
          .innerJoin('taxonomies as t', 't.id', 'a.taxonomy_id')
          .innerJoin('cities as c', 'c.id', 'a.city_id')
          .leftJoin('users as u', 'u.id', 'a.user_id')
          .leftJoin('ad_pending_changes as pc', 'pc.ad_id', 'a.id')
          .where('a.id', 'in', ids)
          .select([
            'a.id',
            'a.title',
            'a.slug',
            'a.status',
            'a.price',
            'a.currency',
            'a.price_type',
            'a.category_id',
            'a.created_at',
            'a.updated_at',
            'a.featured_until',
            'a.rejection_reason',
            't.slug as taxonomy_slug',
            't.name_ar as taxonomy_ar',
            't.name_en as taxonomy_en',
            'c.name_ar as city_ar',
            'c.name_en as city_en',
            'u.id as owner_id',
            'u.name as owner_name',
            'pc.updated_at as change_at',
          ])
          .select((eb) => [
            eb
              .selectFrom('ad_images as i')
              .select('i.key')
              .whereRef('i.ad_id', '=', 'a.id')
              .orderBy('i.position')
              .orderBy('i.id')
              .limit(1)
              .as('photo_key'),
            openReports(eb)
              .select((r) => r.fn.countAll().as('n'))
              .as('open_reports'),
            queuedAt(eb).as('queued_at'),
          ])
          .execute();
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  const rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);

  const trails = await categoryTrails(
    db,
    rows.map((r) => r.category_id),
  );
  const items = rows.map(
    (r): QueueItem => ({
      id: Number(r.id),
      title: r.title,
      slug: r.slug,
      status: r.status,
      price: r.price === null ? null : toNumber(r.price),
      currency: r.currency,
      price_type: r.price_type,
      created_at: toIso(r.created_at),
      updated_at: toIso(r.updated_at),
      queued_at: r.queued_at ? toIso(r.queued_at) : null,
      featured_until: r.featured_until ? toIso(r.featured_until) : null,
      rejection_reason: r.rejection_reason,
      taxonomy: { slug: r.taxonomy_slug, name_ar: r.taxonomy_ar, name_en: r.taxonomy_en },
      categories: trails.get(r.category_id) ?? [],
      city: { name_ar: r.city_ar, name_en: r.city_en },
      owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
      photo: r.photo_key ? adImageUrls({ key: r.photo_key }) : null,
      open_reports: toNumber(r.open_reports),
      change_at: r.change_at ? toIso(r.change_at) : null,
    }),
  );
  return { items, next, total, perPage, counts, changes: changeCount };
}

/** One attribute of an ad, as the moderator reads it. */
export interface AdAttributeView {
  key: string;
  name_ar: string;
  name_en: string;
  type: AttributeType;
  unit_ar: string | null;
  unit_en: string | null;
  /** Option labels (select, multiselect), else the raw value: number, boolean, `YYYY-MM-DD` or text. */
  values: ({ option: AttributeOption } | { number: number } | { bool: boolean } | { text: string })[];
}

interface PriceView {
  price: number | null;
  price_type: string;
  currency: string;
}

/** An ad's pending change as the moderator compares it: only the reviewed fields, live → proposed. */
export interface ModerationChange {
  updated_at: string;
  title: [string, string] | null;
  description: [string, string] | null;
  price: [PriceView, PriceView] | null;
  /** Changed attribute values (free text): name and the raw values, '' for none. */
  attributes: { key: string; name_ar: string; name_en: string; before: string; after: string }[];
  /** The live photos and the proposed ones (`added`: not on the live ad). */
  photos: {
    before: { id: number; urls: AdImageUrls }[];
    after: { id: number; urls: AdImageUrls; added: boolean }[];
  } | null;
}

export interface ModerationAd extends Omit<QueueItem, 'photo' | 'owner' | 'city'> {
  change: ModerationChange | null;
  description: string;
  city: Omit<Named, 'slug'>;
  area: Omit<Named, 'slug'> | null;
  contact_phone: boolean;
  contact_whatsapp: boolean;
  published_at: string | null;
  expires_at: string | null;
  views: number;
  attributes: AdAttributeView[];
  photos: { id: number; width: number; height: number; urls: AdImageUrls }[];
  owner: {
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
    member_since: string;
    active_ads: number;
    banned: boolean;
  } | null;
  history: {
    id: number;
    from: string | null;
    to: string;
    reason: string | null;
    actor: string | null;
    at: string;
  }[];
  reports: {
    id: number;
    reason: string;
    note: string | null;
    reporter: string | null;
    at: string;
  }[];
}

/** Everything about one ad for the moderator: deleted ads included (staff keep their history). */
export async function getModerationAd(db: DB, id: number): Promise<ModerationAd> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFound('errors.not-found');
  const ad = await db
    .selectFrom('ads as a')
    .innerJoin('taxonomies as t', 't.id', 'a.taxonomy_id')
    .innerJoin('cities as c', 'c.id', 'a.city_id')
    .leftJoin('areas as ar', 'ar.id', 'a.area_id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .selectAll('a')
    .select([
      't.slug as taxonomy_slug',
      't.name_ar as taxonomy_ar',
      't.name_en as taxonomy_en',
      'c.name_ar as city_ar',
      'c.name_en as city_en',
      'ar.name_ar as area_ar',
      'ar.name_en as area_en',
      'u.id as owner_id',
      'u.name as owner_name',
      'u.email as owner_email',
      'u.phone_number as owner_phone',
      'u.created_at as owner_since',
      'u.active_ads_count as owner_active',
      'u.banned_at as owner_banned',
    ])
    .select((eb) => [
      openReports(eb)
        .select((r) => r.fn.countAll().as('n'))
        .as('open_reports'),
      queuedAt(eb).as('queued_at'),
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!ad) throw new NotFound('errors.not-found');

  const [trails, values, photos, history, reports] = await Promise.all([
    categoryTrails(db, [ad.category_id]),
    db
      .selectFrom('ad_attribute_values as v')
      .innerJoin('attributes as at', 'at.id', 'v.attribute_id')
      .select([
        'v.id',
        'v.value_text',
        'v.value_number',
        'v.value_bool',
        'v.value_date',
        'v.value_option',
        'at.id as attribute_id',
        'at.key',
        'at.name_ar',
        'at.name_en',
        'at.type',
        'at.options',
        'at.unit_ar',
        'at.unit_en',
        'at.taxonomy_id',
        'at.position',
      ])
      .where('v.ad_id', '=', id)
      .execute(),
    db
      .selectFrom('ad_images')
      .select(['id', 'key', 'width', 'height'])
      .where('ad_id', '=', id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('ad_status_history as h')
      .leftJoin('users as u', 'u.id', 'h.actor_id')
      .select(['h.id', 'h.from_status', 'h.to_status', 'h.reason', 'h.created_at', 'u.name as actor'])
      .where('h.ad_id', '=', id)
      .orderBy('h.id')
      .execute(),
    db
      .selectFrom('reports as r')
      .leftJoin('users as u', 'u.id', 'r.reporter_id')
      .select(['r.id', 'r.reason', 'r.note', 'r.created_at', 'u.name as reporter'])
      .where('r.ad_id', '=', id)
      .where('r.status', '=', 'open')
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute(),
  ]);

  // Taxonomy attributes first, then the categories' (as the form shows them); one entry per attribute.
  values.sort(
    (x, y) =>
      Number(x.taxonomy_id === null) - Number(y.taxonomy_id === null) ||
      x.position - y.position ||
      x.attribute_id - y.attribute_id ||
      x.id - y.id,
  );
  const attributes = new Map<number, AdAttributeView>();
  for (const v of values) {
    let view = attributes.get(v.attribute_id);
    if (!view) {
      view = {
        key: v.key,
        name_ar: v.name_ar,
        name_en: v.name_en,
        type: v.type,
        unit_ar: v.unit_ar,
        unit_en: v.unit_en,
        values: [],
      };
      attributes.set(v.attribute_id, view);
    }
    if (v.value_option !== null) {
      const options = toJson<AttributeOption[]>(v.options, []);
      const option = options.find((o) => o.value === v.value_option) ?? {
        value: v.value_option,
        ar: v.value_option,
        en: v.value_option,
      };
      view.values.push({ option });
    } else if (v.value_number !== null) view.values.push({ number: toNumber(v.value_number) });
    else if (v.value_bool !== null) view.values.push({ bool: toBool(v.value_bool) });
    else if (v.value_date !== null) view.values.push({ text: v.value_date });
    else if (v.value_text !== null) view.values.push({ text: v.value_text });
  }

  const iso = (v: unknown) => (v === null || v === undefined ? null : toIso(v));
  const change = await moderationChange(db, ad);
  return {
    change,
    change_at: change?.updated_at ?? null,
    id: Number(ad.id),
    title: ad.title,
    slug: ad.slug,
    status: ad.status,
    description: ad.description,
    price: ad.price === null ? null : toNumber(ad.price),
    currency: ad.currency,
    price_type: ad.price_type,
    created_at: toIso(ad.created_at),
    updated_at: toIso(ad.updated_at),
    queued_at: iso(ad.queued_at),
    published_at: iso(ad.published_at),
    expires_at: iso(ad.expires_at),
    featured_until: iso(ad.featured_until),
    rejection_reason: ad.rejection_reason,
    contact_phone: toBool(ad.contact_phone),
    contact_whatsapp: toBool(ad.contact_whatsapp),
    views: toNumber(ad.views),
    taxonomy: { slug: ad.taxonomy_slug, name_ar: ad.taxonomy_ar, name_en: ad.taxonomy_en },
    categories: trails.get(ad.category_id) ?? [],
    city: { name_ar: ad.city_ar, name_en: ad.city_en },
    area: ad.area_ar !== null && ad.area_en !== null ? { name_ar: ad.area_ar, name_en: ad.area_en } : null,
    open_reports: toNumber(ad.open_reports),
    attributes: [...attributes.values()],
    photos: photos.map((p) => ({ id: Number(p.id), width: p.width, height: p.height, urls: adImageUrls(p) })),
    owner: ad.owner_id
      ? {
          id: ad.owner_id,
          name: ad.owner_name ?? '',
          email: ad.owner_email && !isPlaceholderEmail(ad.owner_email) ? ad.owner_email : null,
          phone: ad.owner_phone ?? null,
          member_since: toIso(ad.owner_since),
          active_ads: toNumber(ad.owner_active),
          banned: ad.owner_banned !== null,
        }
      : null,
    history: history.map((h) => ({
      id: Number(h.id),
      from: h.from_status,
      to: h.to_status,
      reason: h.reason,
      actor: h.actor ?? null,
      at: toIso(h.created_at),
    })),
    reports: reports.map((r) => ({
      id: Number(r.id),
      reason: r.reason,
      note: r.note,
      reporter: r.reporter ?? null,
      at: toIso(r.created_at),
    })),
  };
}

async function moderationChange(
  db: DB,
  ad: { id: number; price: unknown; price_type: string; currency: string; category_id: number },
): Promise<ModerationChange | null> {
  const pending = await findPendingChange(db, ad.id);
  if (!pending) return null;
  const c = pending.changes;
  const p = pending.proposal;
  const pair = (k: string) =>
    k in c ? ([String(c[k]?.[0] ?? ''), String(c[k]?.[1] ?? '')] as [string, string]) : null;
  const priced = ['price', 'price_type', 'currency'].some((k) => k in c);
  let attributes: ModerationChange['attributes'] = [];
  if ('attrs' in c) {
    const [before, after] = c.attrs as [Record<string, unknown>, Record<string, unknown>];
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    const rows =
      keys.length > 0
        ? await db.selectFrom('attributes').select(['key', 'name_ar', 'name_en']).where('key', 'in', keys).execute()
        : [];
    const text = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v));
    attributes = keys.map((key) => {
      const named = rows.find((r) => r.key === key);
      return {
        key,
        name_ar: named?.name_ar ?? key,
        name_en: named?.name_en ?? key,
        before: text(before[key]),
        after: text(after[key]),
      };
    });
  }
  let photos: ModerationChange['photos'] = null;
  if ('photos' in c) {
    const [before, after] = c.photos as [number[], number[]];
    const ids = [...new Set([...before, ...after])];
    const rows =
      ids.length > 0 ? await db.selectFrom('ad_images').select(['id', 'key']).where('id', 'in', ids).execute() : [];
    const urls = (id: number) => {
      const row = rows.find((r) => Number(r.id) === id);
      return row ? adImageUrls(row) : null;
    };
    photos = {
      before: before.flatMap((id) => {
        const u = urls(id);
        return u ? [{ id, urls: u }] : [];
      }),
      after: after.flatMap((id) => {
        const u = urls(id);
        return u ? [{ id, urls: u, added: !before.includes(id) }] : [];
      }),
    };
  }
  return {
    updated_at: pending.updated_at,
    title: pair('title'),
    description: pair('description'),
    price: priced
      ? [
          { price: ad.price === null ? null : toNumber(ad.price), price_type: ad.price_type, currency: ad.currency },
          { price: p.price ?? null, price_type: p.price_type, currency: p.currency },
        ]
      : null,
    attributes,
    photos,
  };
}

/**
 * Features an ad until `until` (null: no longer featured), with a revision in the same
 * transaction. Only pending and published ads; `until` must lie ahead.
 */
export async function featureAd(db: DB, actor: Actor, id: number, until: Date | null, now = new Date()): Promise<void> {
  if (until && until.getTime() <= now.getTime()) throw new Invalid({ until: ['past'] });
  await withTransaction(db, async (trx) => {
    const ad = await trx
      .selectFrom('ads')
      .select(['id', 'status', 'featured_until'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!ad || ad.status === 'deleted') throw new NotFound('errors.not-found');
    if (!FEATURABLE.includes(ad.status)) throw new Invalid({ form: ['ad-wrong-status'] });
    const before = ad.featured_until ? toIso(ad.featured_until) : null;
    const after = until ? until.toISOString() : null;
    await trx
      .updateTable('ads')
      .set({ featured_until: until, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', ad.status)
      .execute();
    await recordRevision(trx, actor, { type: 'ad', id }, until ? 'feature' : 'unfeature', {
      featured_until: [before, after],
    });
    await announceAdChanges(trx, [id]);
  });
}

/**
 * A bulk decision of the queue: each ad moved on its own (its own transaction, history and
 * notification). An ad that another moderator moved meanwhile, or that is gone, is skipped, not an
 * error: the queue page reports how many were done and how many skipped.
 */
export async function moveAds(
  db: DB,
  actor: Actor,
  ids: readonly number[],
  move: Extract<AdMove, 'approve' | 'reject'>,
  options: { reason?: string } = {},
): Promise<{ count: number; skipped: number }> {
  let count = 0;
  let skipped = 0;
  for (const id of ids) {
    try {
      await moveAd(db, actor, id, move, options);
      count++;
    } catch (error) {
      if (!(error instanceof Invalid || error instanceof NotFound)) throw error;
      skipped++;
    }
  }
  return { count, skipped };
}
