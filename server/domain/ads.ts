// Ads (docs/product/ads.md): placing, editing and the status machine. Every change writes, in the
// same transaction (server/db/transaction.ts), its status history, an audit revision, the
// denormalised counters' jobs and the owner's notifications, so none of them can disagree with the
// ad; the page cache hears of it once committed.
import type { Insertable } from 'kysely';
import { PRICED, type PriceType } from '../../app/lib/validation/ads.ts';
import type { DB } from '../db/index.ts';
import type { AdStatus, Database } from '../db/schema.ts';
import { afterCommitOf, withTransaction } from '../db/transaction.ts';
import { toNumber } from '../db/values.ts';
import { enqueue } from '../jobs/registry.ts';
import { adChanged } from './ad-changes.ts';
import { hasConfirmedPhone } from './ad-view.ts';
import type { Attribute, CategoryPath } from './catalog.ts';
import { getCategoryPath } from './catalog.ts';
import { Invalid, NotFound } from './errors.ts';
import { indexAdText } from './search/text-index.ts';

/**
 * Tells this process's listeners (the page cache) that these ads changed, once the change is
 * committed: pass the `tx` of the change (the ads are read in it, the announcement waits for its
 * commit), or a plain `db` after an autocommitted write. Unknown ids are skipped.
 */
export async function announceAdChanges(db: DB, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .selectFrom('ads')
    .select(['id', 'category_id', 'taxonomy_id', 'user_id'])
    .where('id', 'in', ids)
    .execute();
  await afterCommitOf(db, () => {
    for (const r of rows) {
      adChanged({ adId: r.id, categoryId: r.category_id, taxonomyId: r.taxonomy_id, userId: r.user_id });
    }
  });
}

/** Business constants (docs/product/ads.md); the back office will make them settings. */
export const AD_RULES = {
  lifetimeDays: 30,
  reminderDaysBefore: 3,
  /** Ads a member may have pending or published at once without a package. */
  freeActiveAds: 5,
  /** A published ad may be bumped once per this many days. */
  repostCooldownDays: 7,
} as const;

/** Statuses that count against the allowance and the member's active-ad count. */
export const ACTIVE_STATUSES: AdStatus[] = ['pending', 'published'];

export interface Actor {
  id: string;
  ip?: string;
  userAgent?: string;
}

export interface AdInput {
  title: string;
  description: string;
  price_type: PriceType;
  price?: number;
  currency: string;
  city: number;
  area?: number;
  lat?: number;
  lng?: number;
  contact_phone: boolean;
  contact_whatsapp: boolean;
  photos: number[];
  submission_key: string;
  attrs: Record<string, unknown>;
}

const DAY = 86_400_000;

/**
 * The leaf category an ad is placed in, from `/place-your-ad/{taxonomy}/{category...}`: every
 * segment must be the next step of the category's own path in that taxonomy (else 404).
 */
export async function resolveCategoryPath(db: DB, taxonomySlug: string, path: string[]): Promise<CategoryPath> {
  if (path.length === 0) throw new NotFound('errors.category-not-found');
  const found = await getCategoryPath(db, path[path.length - 1] as string);
  const same = found.trail.length === path.length && found.trail.every((c, i) => c.slug === path[i]);
  if (found.taxonomy.slug !== taxonomySlug || !same) throw new NotFound('errors.category-not-found');
  return found;
}

export const isLeaf = (path: CategoryPath) => path.category.children_count === 0;

/** URL slug from the title: letters (any script) and digits joined by dashes, at most 80 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'ad';
}

/** Typed value rows of an ad's attributes (one per option of a multiselect). */
export function valueRows(
  adId: number,
  attributes: Pick<Attribute, 'id' | 'key' | 'type'>[],
  attrs: Record<string, unknown>,
) {
  const rows: Insertable<Database['ad_attribute_values']>[] = [];
  for (const a of attributes) {
    const v = attrs[a.key];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    const base = {
      ad_id: adId,
      attribute_id: a.id,
      value_text: null,
      value_number: null,
      value_bool: null,
      value_date: null,
      value_option: null,
    };
    switch (a.type) {
      case 'number':
      case 'year':
        rows.push({ ...base, value_number: Number(v) });
        break;
      case 'boolean':
        if (v === true) rows.push({ ...base, value_bool: true });
        break;
      case 'select':
        rows.push({ ...base, value_option: String(v) });
        break;
      case 'multiselect':
        for (const option of v as string[]) rows.push({ ...base, value_option: option });
        break;
      case 'date':
        rows.push({ ...base, value_date: String(v) });
        break;
      default:
        rows.push({ ...base, value_text: String(v) });
    }
  }
  return rows;
}

async function checkPlace(trx: DB, input: Pick<AdInput, 'city' | 'area'>) {
  const city = await trx.selectFrom('cities').select('id').where('id', '=', input.city).executeTakeFirst();
  if (!city) throw new Invalid({ city: ['in'] });
  if (input.area !== undefined) {
    const area = await trx
      .selectFrom('areas')
      .select('id')
      .where('id', '=', input.area)
      .where('city_id', '=', input.city)
      .executeTakeFirst();
    if (!area) throw new Invalid({ area: ['in'] });
  }
}

/** The member's confirmed phone number (E.164), or null: what the ad form offers buyers. */
export async function confirmedPhone(db: DB, userId: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['phone_number', 'phone_number_verified'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user && hasConfirmedPhone(user.phone_number, user.phone_number_verified) ? user.phone_number : null;
}

/**
 * Every ad can be answered today (chat is not built yet): calls and WhatsApp go to the seller's
 * confirmed phone number, so an ad needs that number and at least one of the two, whatever the
 * client sent (docs/product-notes.md, "Contact options").
 */
async function checkContact(trx: DB, userId: string, input: Pick<AdInput, 'contact_phone' | 'contact_whatsapp'>) {
  if (!(await confirmedPhone(trx, userId))) {
    throw new Invalid({
      contact_phone: ['phone-unconfirmed'],
      ...(input.contact_whatsapp ? { contact_whatsapp: ['phone-unconfirmed'] } : {}),
    });
  }
  if (!input.contact_phone && !input.contact_whatsapp) throw new Invalid({ contact_phone: ['contact-required'] });
}

/** The member's pending and published ads (what the allowance counts). */
export async function countActiveAds(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE_STATUSES)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/** Refuses when the member already has as many pending or published ads as the free allowance. */
async function checkAllowance(trx: DB, userId: string) {
  if ((await countActiveAds(trx, userId)) >= AD_RULES.freeActiveAds) {
    throw new Invalid({ form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] });
  }
}

/** One line of the ad's status history, dated like the change it records. */
async function recordStatus(
  trx: DB,
  adId: number,
  change: { from: AdStatus | null; to: AdStatus; actor?: Actor | null; reason?: string | null; now: Date },
) {
  await trx
    .insertInto('ad_status_history')
    .values({
      ad_id: adId,
      from_status: change.from,
      to_status: change.to,
      actor_id: change.actor?.id ?? null,
      reason: change.reason ?? null,
      created_at: change.now,
    })
    .execute();
}

/** The member's own unattached photos (or those already on this ad), in the order given. */
async function attachPhotos(trx: DB, userId: string, adId: number, photos: number[]) {
  if (photos.length > 0) {
    const owned = await trx
      .selectFrom('ad_images')
      .select('id')
      .where('id', 'in', photos)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('ad_id', 'is', null), eb('ad_id', '=', adId)]))
      .execute();
    if (owned.length !== photos.length) throw new Invalid({ photos: ['invalid'] });
  }
  // Photos dropped from the ad go back to the member's pending uploads (pruned after a day).
  await trx
    .updateTable('ad_images')
    .set({ ad_id: null })
    .where('ad_id', '=', adId)
    .$if(photos.length > 0, (q) => q.where('id', 'not in', photos))
    .execute();
  for (const [position, id] of photos.entries()) {
    await trx.updateTable('ad_images').set({ ad_id: adId, position }).where('id', '=', id).execute();
  }
}

export async function recordRevision(
  trx: DB,
  actor: Actor | null,
  subject: { type: string; id: string | number },
  action: string,
  changes: Record<string, [unknown, unknown]>,
) {
  await trx
    .insertInto('revisions')
    .values({
      actor_id: actor?.id ?? null,
      subject_type: subject.type,
      subject_id: String(subject.id),
      action,
      changes: JSON.stringify(changes),
      ip: actor?.ip ?? null,
      user_agent: actor?.userAgent?.slice(0, 500) ?? null,
    })
    .execute();
}

export async function notify(trx: DB, userId: string | null, type: string, data: Record<string, unknown>) {
  if (!userId) return;
  await trx
    .insertInto('notifications')
    .values({ user_id: userId, type, data: JSON.stringify(data) })
    .execute();
}

/** Counters change with the status: the ad's taxonomy is recounted once, however many ads changed. */
async function countersChanged(trx: DB, ad: { taxonomy_id: number; user_id: string | null }) {
  await enqueue(
    trx,
    'recount-taxonomy',
    { taxonomyId: ad.taxonomy_id },
    { uniqueKey: `recount-taxonomy:${ad.taxonomy_id}` },
  );
  if (ad.user_id) await recountUserAds(trx, ad.user_id);
}

export async function recountUserAds(trx: DB, userId: string) {
  await trx
    .updateTable('users')
    .set({ active_ads_count: await countActiveAds(trx, userId) })
    .where('id', '=', userId)
    .execute();
}

/**
 * Published ads per category of a taxonomy, each category counting its descendants (the category
 * pages list them too). One grouped query and a walk up the tree.
 */
export async function recountTaxonomy(db: DB, taxonomyId: number) {
  const [categories, counts] = await Promise.all([
    db.selectFrom('categories').select(['id', 'parent_id']).where('taxonomy_id', '=', taxonomyId).execute(),
    db
      .selectFrom('ads')
      .select(['category_id', (eb) => eb.fn.countAll().as('n')])
      .where('taxonomy_id', '=', taxonomyId)
      .where('status', '=', 'published')
      .groupBy('category_id')
      .execute(),
  ]);
  const parent = new Map(categories.map((c) => [c.id, c.parent_id]));
  const total = new Map(categories.map((c) => [c.id, 0]));
  for (const row of counts) {
    let id: number | null | undefined = row.category_id;
    while (id !== null && id !== undefined) {
      total.set(id, (total.get(id) ?? 0) + toNumber(row.n));
      id = parent.get(id);
    }
  }
  for (const [id, n] of total) await db.updateTable('categories').set({ ads_count: n }).where('id', '=', id).execute();
}

/** The ads table's columns that come straight from the form. */
function adFields(input: Omit<AdInput, 'submission_key'>) {
  return {
    title: input.title,
    description: input.description,
    price: PRICED.includes(input.price_type) ? (input.price ?? null) : null,
    currency: input.currency,
    price_type: input.price_type,
    city_id: input.city,
    area_id: input.area ?? null,
    lat: input.lat ?? null,
    lng: input.lng ?? null,
    contact_phone: input.contact_phone,
    contact_whatsapp: input.contact_whatsapp,
  };
}

export interface PlacedAd {
  id: number;
  slug: string;
  status: AdStatus;
  /** False when this submission had already created the ad (a double submit). */
  created: boolean;
}

/**
 * Places an ad in a leaf category. `attributes` are the category's (validated input); the member's
 * allowance, the city/area pair and the photos' ownership are checked here, in the transaction.
 */
export async function createAd(
  db: DB,
  settings: { moderation: 'pre' | 'post'; now?: Date },
  actor: Actor,
  path: CategoryPath,
  attributes: Attribute[],
  input: AdInput,
): Promise<PlacedAd> {
  if (!isLeaf(path)) throw new Invalid({ form: ['category-not-leaf'] });
  const now = settings.now ?? new Date();
  return withTransaction(db, async (trx): Promise<PlacedAd> => {
    const again = await trx
      .selectFrom('ads')
      .select(['id', 'slug', 'status'])
      .where('user_id', '=', actor.id)
      .where('submission_key', '=', input.submission_key)
      .executeTakeFirst();
    if (again) return { id: again.id, slug: again.slug, status: again.status as AdStatus, created: false };

    await checkAllowance(trx, actor.id);
    await checkPlace(trx, input);
    await checkContact(trx, actor.id, input);

    const status: AdStatus = settings.moderation === 'post' ? 'published' : 'pending';
    const live = status === 'published';
    const fields = adFields(input);
    const inserted = await trx
      .insertInto('ads')
      .values({
        ...fields,
        user_id: actor.id,
        taxonomy_id: path.taxonomy.id,
        category_id: path.category.id,
        slug: slugify(input.title),
        status,
        submission_key: input.submission_key,
        published_at: live ? now : null,
        bumped_at: live ? now : null,
        expires_at: live ? new Date(now.getTime() + AD_RULES.lifetimeDays * DAY) : null,
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'slug'])
      .executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    const values = valueRows(id, attributes, input.attrs);
    if (values.length > 0) await trx.insertInto('ad_attribute_values').values(values).execute();
    await indexAdText(trx, id, input.title, input.description);
    await attachPhotos(trx, actor.id, id, input.photos);
    await recordStatus(trx, id, { from: null, to: status, actor, now });
    await recordRevision(
      trx,
      actor,
      { type: 'ad', id },
      'create',
      Object.fromEntries(
        Object.entries({
          ...fields,
          category_id: path.category.id,
          attrs: input.attrs,
          photos: input.photos,
          status,
        }).map(([k, v]) => [k, [null, v]]),
      ),
    );
    await countersChanged(trx, { taxonomy_id: path.taxonomy.id, user_id: actor.id });
    await announceAdChanges(trx, [id]);
    return { id, slug: inserted.slug, status, created: true };
  });
}

/**
 * An ad's attribute values in the form's shape (the inverse of valueRows): numbers, `true` for a set
 * switch, option values (a list for a multiselect), dates and texts, keyed by attribute key.
 */
export async function attributeValues(
  db: DB,
  adId: number,
  attributes: Pick<Attribute, 'id' | 'key' | 'type'>[],
): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('ad_attribute_values').selectAll().where('ad_id', '=', adId).orderBy('id').execute();
  const values: Record<string, unknown> = {};
  for (const a of attributes) {
    const mine = rows.filter((r) => r.attribute_id === a.id);
    if (mine.length === 0) continue;
    const first = mine[0] as (typeof mine)[number];
    switch (a.type) {
      case 'number':
      case 'year':
        values[a.key] = toNumber(first.value_number);
        break;
      case 'boolean':
        values[a.key] = Boolean(first.value_bool);
        break;
      case 'multiselect':
        values[a.key] = mine.map((r) => r.value_option);
        break;
      case 'select':
        values[a.key] = first.value_option;
        break;
      case 'date':
        values[a.key] = first.value_date;
        break;
      default:
        values[a.key] = first.value_text;
    }
  }
  return values;
}

/** Attribute values as compared by an edit: empty values dropped, option lists in a fixed order. */
function comparableAttrs(attrs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attrs)
      .filter(([, v]) => !(v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && !v.length)))
      .map(([k, v]) => [k, Array.isArray(v) ? [...v].map(String).sort() : v])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

/** Changing one of these sends a published ad back to review when moderation is `pre` (docs/product/ads.md). */
const MATERIAL_FIELDS = ['title', 'description', 'price', 'price_type', 'currency', 'photos'] as const;

export interface EditedAd {
  id: number;
  slug: string;
  status: AdStatus;
  /** What changed (field names); empty when the form was saved as it was. */
  changed: string[];
}

/**
 * The owner's edit of their ad, with the same form (and input) as placing it. The category stays.
 * A published ad whose title, description, price or photos change goes back to review under `pre`
 * moderation; a rejected ad (or a draft) is sent for review again, which needs room in the
 * allowance. Sold and expired ads keep their status. The revision holds only what changed.
 */
export async function updateAd(
  db: DB,
  settings: { moderation: 'pre' | 'post'; now?: Date },
  actor: Actor,
  id: number,
  attributes: Attribute[],
  input: Omit<AdInput, 'submission_key'>,
): Promise<EditedAd> {
  const now = settings.now ?? new Date();
  return withTransaction(db, async (trx): Promise<EditedAd> => {
    const ad = await trx
      .selectFrom('ads')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', actor.id)
      .where('status', '!=', 'deleted')
      .executeTakeFirst();
    if (!ad) throw new NotFound('errors.not-found');
    const status = ad.status as AdStatus;
    await checkPlace(trx, input);
    await checkContact(trx, actor.id, input);

    const fields = adFields(input);
    const before: Record<string, unknown> = {
      title: ad.title,
      description: ad.description,
      price: ad.price === null ? null : toNumber(ad.price),
      currency: ad.currency,
      price_type: ad.price_type,
      city_id: ad.city_id,
      area_id: ad.area_id,
      lat: ad.lat === null ? null : Number(ad.lat),
      lng: ad.lng === null ? null : Number(ad.lng),
      contact_phone: Boolean(ad.contact_phone),
      contact_whatsapp: Boolean(ad.contact_whatsapp),
      attrs: comparableAttrs(await attributeValues(trx, id, attributes)),
      photos: (
        await trx.selectFrom('ad_images').select('id').where('ad_id', '=', id).orderBy('position').execute()
      ).map((p) => p.id),
    };
    const after: Record<string, unknown> = { ...fields, attrs: comparableAttrs(input.attrs), photos: input.photos };
    const changes: Record<string, [unknown, unknown]> = {};
    for (const [key, value] of Object.entries(after)) {
      if (JSON.stringify(before[key]) !== JSON.stringify(value)) changes[key] = [before[key], value];
    }
    const changed = Object.keys(changes);
    if (changed.length === 0) return { id, slug: ad.slug, status, changed };

    const material = changed.some((k) => (MATERIAL_FIELDS as readonly string[]).includes(k));
    // A rejected ad always goes back to the moderators who rejected it, whatever the mode.
    let next = status;
    if (status === 'rejected') next = 'pending';
    else if (status === 'draft') next = settings.moderation === 'post' ? 'published' : 'pending';
    else if (status === 'published' && material && settings.moderation === 'pre') next = 'pending';
    if (!ACTIVE_STATUSES.includes(status) && ACTIVE_STATUSES.includes(next)) await checkAllowance(trx, actor.id);

    const slug = slugify(input.title);
    const live = next === 'published' && status !== 'published';
    const updated = await trx
      .updateTable('ads')
      .set({
        ...fields,
        slug,
        status: next,
        updated_at: now,
        ...(next === 'pending' ? { rejection_reason: null } : {}),
        ...(live
          ? { published_at: now, bumped_at: now, expires_at: new Date(now.getTime() + AD_RULES.lifetimeDays * DAY) }
          : {}),
      })
      .where('id', '=', id)
      .where('status', '=', status)
      .executeTakeFirst();
    // A moderator's decision landed between reading and writing: the member sees the new state first.
    if (Number(updated.numUpdatedRows) === 0) throw new Invalid({ form: ['ad-wrong-status'] });
    if ('attrs' in changes) {
      await trx.deleteFrom('ad_attribute_values').where('ad_id', '=', id).execute();
      const values = valueRows(id, attributes, input.attrs);
      if (values.length > 0) await trx.insertInto('ad_attribute_values').values(values).execute();
    }
    if ('photos' in changes) await attachPhotos(trx, actor.id, id, input.photos);
    if ('title' in changes || 'description' in changes) await indexAdText(trx, id, input.title, input.description);
    if (next !== status) {
      changes.status = [status, next];
      await recordStatus(trx, id, { from: status, to: next, actor, now });
    }
    await recordRevision(trx, actor, { type: 'ad', id }, 'edit', changes);
    if (next !== status) await countersChanged(trx, ad);
    await announceAdChanges(trx, [id]);
    return { id, slug, status: next, changed };
  });
}

/** The status machine (docs/product/ads.md): who may move an ad from where to where. */
const MOVES = {
  approve: { from: ['pending'], to: 'published' },
  reject: { from: ['pending', 'published'], to: 'rejected' },
  'mark-sold': { from: ['published'], to: 'sold' },
  renew: { from: ['expired'], to: 'published' },
  expire: { from: ['published'], to: 'expired' },
  delete: { from: ['draft', 'pending', 'published', 'rejected', 'sold', 'expired', 'archived'], to: 'deleted' },
} as const satisfies Record<string, { from: readonly AdStatus[]; to: AdStatus }>;
export type AdMove = keyof typeof MOVES;

/**
 * The dates of an ad going live. An approval of an ad that was already live (sent back to review
 * by an edit) keeps its place in the listings and its expiry: an edit is not a free repost.
 */
function publication(ad: AdRow, move: AdMove, now: Date) {
  const fresh = {
    published_at: now,
    bumped_at: now,
    expires_at: new Date(now.getTime() + AD_RULES.lifetimeDays * DAY),
  };
  const expires = ad.expires_at ? new Date(ad.expires_at) : null;
  if (move !== 'approve' || !ad.published_at || !ad.bumped_at || !expires || expires <= now) return fresh;
  return { published_at: new Date(ad.published_at), bumped_at: new Date(ad.bumped_at), expires_at: expires };
}

interface AdRow {
  id: number;
  user_id: string | null;
  taxonomy_id: number;
  status: AdStatus;
  title: string;
  bumped_at: Date | string | null;
  published_at: Date | string | null;
  expires_at: Date | string | null;
}

async function lockAd(trx: DB, id: number, owner?: string): Promise<AdRow> {
  const ad = await trx
    .selectFrom('ads')
    .select(['id', 'user_id', 'taxonomy_id', 'status', 'title', 'bumped_at', 'published_at', 'expires_at'])
    .where('id', '=', id)
    .$if(owner !== undefined, (q) => q.where('user_id', '=', owner as string))
    .executeTakeFirst();
  // Someone else's ad answers exactly like a missing one.
  if (!ad || ad.status === 'deleted') throw new NotFound('errors.not-found');
  return ad as AdRow;
}

/**
 * Moves an ad along the status machine, with history, revision, counters and the owner's
 * notification. `owner` restricts the move to that member's ads (the owner's own actions).
 */
export async function moveAd(
  db: DB,
  actor: Actor,
  id: number,
  move: AdMove,
  options: { owner?: string; reason?: string; now?: Date } = {},
): Promise<AdStatus> {
  const rule: { from: readonly AdStatus[]; to: AdStatus } | undefined = Object.hasOwn(MOVES, move)
    ? MOVES[move]
    : undefined;
  if (!rule) throw new Invalid({ form: ['invalid'] });
  const now = options.now ?? new Date();
  return withTransaction(db, async (trx) => {
    const ad = await lockAd(trx, id, options.owner);
    if (!rule.from.includes(ad.status)) throw new Invalid({ form: ['ad-wrong-status'] });
    if (move === 'reject' && !options.reason) throw new Invalid({ reason: ['required'] });
    // Renewing makes the ad active again: the allowance must have room for it.
    if (move === 'renew' && ad.user_id) await checkAllowance(trx, ad.user_id);
    const live = rule.to === 'published';
    // Conditional on the status just read: of two simultaneous moves, only one applies.
    const moved = await trx
      .updateTable('ads')
      .set({
        status: rule.to,
        updated_at: now,
        ...(move === 'reject' ? { rejection_reason: options.reason } : {}),
        ...(live ? publication(ad, move, now) : {}),
        ...(move === 'delete' ? { deleted_at: now } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', ad.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new Invalid({ form: ['ad-wrong-status'] });
    await recordStatus(trx, id, { from: ad.status, to: rule.to, actor, reason: options.reason, now });
    await recordRevision(trx, actor, { type: 'ad', id }, move, {
      status: [ad.status, rule.to],
      ...(options.reason ? { rejection_reason: [null, options.reason] } : {}),
    });
    const byStaff = ad.user_id !== actor.id;
    if (byStaff && (move === 'approve' || move === 'reject')) {
      await notify(trx, ad.user_id, move === 'approve' ? 'ad-approved' : 'ad-rejected', {
        ad_id: id,
        title: ad.title,
        ...(options.reason ? { reason: options.reason } : {}),
      });
    }
    await countersChanged(trx, ad);
    await announceAdChanges(trx, [id]);
    return rule.to;
  });
}

/** Milliseconds until an ad bumped at `bumpedAt` may be bumped again (0 or less: now). */
export function bumpWait(bumpedAt: Date | string | null, now: Date): number {
  const last = bumpedAt ? new Date(bumpedAt).getTime() : 0;
  return last + AD_RULES.repostCooldownDays * DAY - now.getTime();
}

/**
 * The owner's repost: an expired ad is renewed for another lifetime; a published one is bumped to
 * the top, at most once per cool-down. Refusals say why (`repost-cooldown:<days left>`).
 */
export async function repostAd(db: DB, actor: Actor, id: number, now = new Date()): Promise<'renewed' | 'bumped'> {
  const ad = await lockAd(db, id, actor.id);
  if (ad.status === 'expired') {
    await moveAd(db, actor, id, 'renew', { owner: actor.id, now });
    return 'renewed';
  }
  if (ad.status !== 'published') throw new Invalid({ form: ['ad-not-repostable'] });
  await withTransaction(db, async (trx) => {
    const fresh = await lockAd(trx, id, actor.id);
    const wait = bumpWait(fresh.bumped_at, now);
    if (wait > 0) throw new Invalid({ form: [`repost-cooldown:${Math.ceil(wait / DAY)}`] });
    await trx.updateTable('ads').set({ bumped_at: now, updated_at: now }).where('id', '=', id).execute();
    await recordRevision(trx, actor, { type: 'ad', id }, 'bump', { bumped_at: [fresh.bumped_at, now.toISOString()] });
    await announceAdChanges(trx, [id]);
  });
  return 'bumped';
}

/** Published ads past their expiry become expired (a scheduled job). Returns how many. */
export async function expireAds(db: DB, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('ads')
    .select('id')
    .where('status', '=', 'published')
    .where('expires_at', '<=', now)
    .limit(500)
    .execute();
  for (const { id } of due) {
    await withTransaction(db, async (trx) => {
      const ad = await lockAd(trx, id);
      if (ad.status !== 'published') return;
      await trx
        .updateTable('ads')
        .set({ status: 'expired', updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'published')
        .execute();
      await recordStatus(trx, id, { from: 'published', to: 'expired', now });
      await notify(trx, ad.user_id, 'ad-expired', { ad_id: id, title: ad.title });
      await countersChanged(trx, ad);
      await announceAdChanges(trx, [id]);
    });
  }
  return due.length;
}

/** Owners are told once, a few days before their ad expires (a scheduled job). Returns how many. */
export async function remindExpiringAds(db: DB, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + AD_RULES.reminderDaysBefore * DAY);
  const due = await db
    .selectFrom('ads')
    .select(['id', 'user_id', 'title', 'expires_at'])
    .where('status', '=', 'published')
    .where('expires_at', '<=', soon)
    .where('expires_at', '>', now)
    .where('reminded_at', 'is', null)
    .limit(500)
    .execute();
  for (const ad of due) {
    await withTransaction(db, async (trx) => {
      const marked = await trx
        .updateTable('ads')
        .set({ reminded_at: now })
        .where('id', '=', ad.id)
        .where('reminded_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return;
      await notify(trx, ad.user_id, 'ad-expiring', {
        ad_id: ad.id,
        title: ad.title,
        expires_at: new Date(ad.expires_at as string | Date).toISOString(),
      });
    });
  }
  return due.length;
}
