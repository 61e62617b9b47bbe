// Placing and editing an ad (docs/product/ads.md): the form's values checked against the category's
// attributes, the city and the seller's contact options, then written with their photos, text index
// and revision in one transaction.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { PRICED, type PriceType } from '../../../app/lib/validation/ads.ts';
import type { DB } from '../../db/index.ts';
import type { AdStatus, Database } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toJson, toNumber } from '../../db/values.ts';
import { recordRevision } from '../audit.ts';
import type { Attribute, CategoryPath } from '../catalog.ts';
import { getCategoryPath } from '../catalog.ts';
import { Invalid, NotFound } from '../errors.ts';
import { isPriceDrop, tellFavoriters } from '../favorites.ts';
import { indexAdText } from '../search/text-index.ts';
import { readSettings } from '../settings.ts';
import { announceAdChanges, countersChanged, recordStatus } from './bookkeeping.ts';
import { ACTIVE_STATUSES, type Actor, checkAllowance, confirmedPhone, DAY } from './rules.ts';

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
  settings: { moderation?: 'pre' | 'post'; now?: Date },
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
    if (again) return { id: again.id, slug: again.slug, status: again.status, created: false };

    await checkAllowance(trx, actor.id, now);
    await checkPlace(trx, input);
    await checkContact(trx, actor.id, input);

    // The mode and lifetime in force (server/domain/settings.ts), unless the caller fixes the mode.
    const rules = await readSettings(trx);
    const moderation = settings.moderation ?? rules.moderation;
    const status: AdStatus = moderation === 'post' ? 'published' : 'pending';
    const live = status === 'published';
    const fields = adFields(input);
    // A company member's ad is the company's (server/domain/companies/members.ts keeps it so).
    const membership = await trx
      .selectFrom('company_members')
      .select('company_id')
      .where('user_id', '=', actor.id)
      .executeTakeFirst();
    const inserted = await trx
      .insertInto('ads')
      .values({
        ...fields,
        user_id: actor.id,
        company_id: membership?.company_id ?? null,
        taxonomy_id: path.taxonomy.id,
        category_id: path.category.id,
        slug: slugify(input.title),
        status,
        submission_key: input.submission_key,
        published_at: live ? now : null,
        bumped_at: live ? now : null,
        expires_at: live ? new Date(now.getTime() + rules.lifetimeDays * DAY) : null,
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

/** An edit's comparable values of the ad as it is live. */
async function liveValues(trx: DB, ad: Selectable<Database['ads']>, attributes: Attribute[]) {
  return {
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
    attrs: comparableAttrs(await attributeValues(trx, ad.id, attributes)),
    photos: (
      await trx.selectFrom('ad_images').select('id').where('ad_id', '=', ad.id).orderBy('position').execute()
    ).map((p) => p.id),
  } as Record<string, unknown>;
}

function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) changes[key] = [before[key], value];
  }
  return changes;
}

/** The price fields, reviewed together. */
const PRICE_FIELDS = ['price', 'price_type', 'currency'] as const;

/**
 * Which changed fields of a published ad's edit need review under `pre` moderation
 * (docs/product/ads.md, "Editing a live ad"): the title and the description; the price unless it
 * drops (same currency, an amount both before and after, fixed or negotiable, not higher); photos
 * when one is added (dropping or reordering approved photos does not); attribute values when one
 * written as free text changes. Everything else (structured attributes, place, pin, contact
 * options) is applied at once. Price fields come back together, as do photos and attributes.
 */
export function reviewedFields(
  changes: Record<string, [unknown, unknown]>,
  attributes: Pick<Attribute, 'key' | 'type'>[],
): string[] {
  const reviewed: string[] = [];
  if ('title' in changes) reviewed.push('title');
  if ('description' in changes) reviewed.push('description');
  if (PRICE_FIELDS.some((f) => f in changes)) {
    const before = (f: (typeof PRICE_FIELDS)[number]) => (f in changes ? changes[f]?.[0] : undefined);
    const after = (f: (typeof PRICE_FIELDS)[number]) => (f in changes ? changes[f]?.[1] : undefined);
    const sameCurrency = !('currency' in changes);
    // Both types priced: fixed ↔ negotiable is a change of wording, not of what the buyer pays.
    const typeBefore = (before('price_type') ?? after('price_type')) as PriceType | undefined;
    const typeAfter = after('price_type') as PriceType | undefined;
    const priced =
      !('price_type' in changes) ||
      (PRICED.includes(typeBefore as PriceType) && PRICED.includes(typeAfter as PriceType));
    const amountBefore = 'price' in changes ? changes.price?.[0] : null;
    const amountAfter = 'price' in changes ? changes.price?.[1] : null;
    const drop =
      !('price' in changes) ||
      (typeof amountBefore === 'number' && typeof amountAfter === 'number' && amountAfter <= amountBefore);
    if (!(sameCurrency && priced && drop)) reviewed.push(...PRICE_FIELDS.filter((f) => f in changes));
  }
  if ('photos' in changes) {
    const [before, after] = changes.photos as [number[], number[]];
    if (after.some((id) => !before.includes(id))) reviewed.push('photos');
  }
  if ('attrs' in changes) {
    const [before, after] = changes.attrs as [Record<string, unknown>, Record<string, unknown>];
    const free = attributes.filter((a) => a.type === 'text').map((a) => a.key);
    if (free.some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))) reviewed.push('attrs');
  }
  return reviewed;
}

export interface EditedAd {
  id: number;
  slug: string;
  status: AdStatus;
  /** What changed (field names); empty when the form was saved as it was. */
  changed: string[];
  /** The fields now waiting for review as a pending change while the ad stays live (else empty). */
  reviewed: string[];
}

/** Releases the photos held for an ad's pending change but `keep`, and drops the change. */
export async function dropPendingChange(trx: DB, adId: number, keep: number[] = []): Promise<void> {
  await trx
    .updateTable('ad_images')
    .set({ held_for_ad_id: null })
    .where('held_for_ad_id', '=', adId)
    .$if(keep.length > 0, (q) => q.where('id', 'not in', keep))
    .execute();
  await trx.deleteFrom('ad_pending_changes').where('ad_id', '=', adId).execute();
}

/**
 * Writes an edit's values onto the ad (the fields, slug, attribute values, photos and text index of
 * what changed) with `extra` columns; `owner` is whose photos may be attached. Conditional on the
 * status read: a move that landed in between is refused.
 */
export async function writeAdValues(
  trx: DB,
  ad: { id: number; status: AdStatus; user_id: string | null },
  attributes: Attribute[],
  input: Omit<AdInput, 'submission_key'>,
  changes: Record<string, [unknown, unknown]>,
  extra: Updateable<Database['ads']>,
): Promise<string> {
  const slug = slugify(input.title);
  const fields = adFields(input);
  const before = await trx
    .selectFrom('ads')
    .select(['price', 'currency', 'price_type'])
    .where('id', '=', ad.id)
    .executeTakeFirst();
  const updated = await trx
    .updateTable('ads')
    .set({ ...fields, slug, ...extra })
    .where('id', '=', ad.id)
    .where('status', '=', ad.status)
    .executeTakeFirst();
  // A moderator's decision landed between reading and writing: the member sees the new state first.
  if (Number(updated.numUpdatedRows) === 0) throw new Invalid({ form: ['ad-wrong-status'] });
  // A live ad's price drop reaches the members who saved it (docs/product/favorites.md), whether the
  // edit applied at once or a moderator approved it now.
  const old = before && { ...before, price: before.price === null ? null : toNumber(before.price) };
  if (ad.status === 'published' && (extra.status ?? ad.status) === 'published' && old && isPriceDrop(old, fields)) {
    await tellFavoriters(trx, ad.id, ad.user_id, {
      type: 'favorite-price-drop',
      data: {
        ad_id: ad.id,
        title: input.title,
        old_price: old.price as number,
        new_price: fields.price as number,
        currency: fields.currency,
      },
    });
  }
  if ('attrs' in changes) {
    await trx.deleteFrom('ad_attribute_values').where('ad_id', '=', ad.id).execute();
    const values = valueRows(ad.id, attributes, input.attrs);
    if (values.length > 0) await trx.insertInto('ad_attribute_values').values(values).execute();
  }
  if ('photos' in changes && ad.user_id) await attachPhotos(trx, ad.user_id, ad.id, input.photos);
  // The text index holds the ad's words and those its category, place and options give it.
  if (Object.keys(changes).some((k) => k !== 'photos')) await indexAdText(trx, ad.id, input.title, input.description);
  return slug;
}

/** The ad's live version of the reviewed fields, the rest of the edit as given. */
function keepLive(
  input: Omit<AdInput, 'submission_key'>,
  before: Record<string, unknown>,
  reviewed: string[],
): Omit<AdInput, 'submission_key'> {
  const live = { ...input };
  if (reviewed.includes('title')) live.title = before.title as string;
  if (reviewed.includes('description')) live.description = before.description as string;
  if (PRICE_FIELDS.some((f) => reviewed.includes(f))) {
    live.price = (before.price as number | null) ?? undefined;
    live.price_type = before.price_type as PriceType;
    live.currency = before.currency as string;
  }
  if (reviewed.includes('photos')) live.photos = before.photos as number[];
  if (reviewed.includes('attrs')) live.attrs = before.attrs as Record<string, unknown>;
  return live;
}

/**
 * The owner's edit of their ad, with the same form (and input) as placing it. The category stays.
 * Under `pre` moderation, the part of a published ad's edit that needs review (reviewedFields)
 * waits as the ad's pending change while the approved version stays published; the rest applies at
 * once. Editing again replaces the pending change (saving the live version withdraws it). A
 * rejected ad (or a draft) is sent for review again as a whole, which needs room in the allowance.
 * Sold and expired ads keep their status. Revisions hold only what changed.
 */
export async function updateAd(
  db: DB,
  settings: { moderation?: 'pre' | 'post'; now?: Date },
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
    const status = ad.status;
    await checkPlace(trx, input);
    await checkContact(trx, actor.id, input);
    const rules = await readSettings(trx);
    const moderation = settings.moderation ?? rules.moderation;

    const before = await liveValues(trx, ad, attributes);
    const after: Record<string, unknown> = {
      ...adFields(input),
      attrs: comparableAttrs(input.attrs),
      photos: input.photos,
    };
    const changes = diff(before, after);
    const changed = Object.keys(changes);
    const pending = await trx
      .selectFrom('ad_pending_changes')
      .select(['id', 'changes'])
      .where('ad_id', '=', id)
      .executeTakeFirst();

    const reviewed = status === 'published' && moderation === 'pre' ? reviewedFields(changes, attributes) : [];
    if (reviewed.length > 0) {
      // The live part of the edit now, the reviewed part as the ad's (new) pending change.
      const liveInput = keepLive(input, before, reviewed);
      const liveChanges = diff(before, {
        ...adFields(liveInput),
        attrs: comparableAttrs(liveInput.attrs),
        photos: liveInput.photos,
      });
      const proposed = Object.fromEntries(Object.entries(changes).filter(([k]) => reviewed.includes(k))) as Record<
        string,
        [unknown, unknown]
      >;
      const slug =
        Object.keys(liveChanges).length > 0
          ? await writeAdValues(trx, ad, attributes, liveInput, liveChanges, { updated_at: now })
          : ad.slug;
      const proposal = JSON.stringify({ ...input, attrs: comparableAttrs(input.attrs) });
      if (pending) {
        await trx
          .updateTable('ad_pending_changes')
          .set({ proposal, changes: JSON.stringify(proposed), updated_at: now, user_id: actor.id })
          .where('id', '=', pending.id)
          .execute();
      } else {
        await trx
          .insertInto('ad_pending_changes')
          .values({
            ad_id: id,
            user_id: actor.id,
            proposal,
            changes: JSON.stringify(proposed),
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      // New photos of the change are held for it; photos of a replaced change it no longer uses are freed.
      const fresh = input.photos.filter((p) => !(before.photos as number[]).includes(p));
      await trx
        .updateTable('ad_images')
        .set({ held_for_ad_id: null })
        .where('held_for_ad_id', '=', id)
        .$if(fresh.length > 0, (q) => q.where('id', 'not in', fresh))
        .execute();
      if (fresh.length > 0) {
        const held = await trx
          .updateTable('ad_images')
          .set({ held_for_ad_id: id })
          .where('id', 'in', fresh)
          .where('user_id', '=', actor.id)
          .where('ad_id', 'is', null)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) !== fresh.length) throw new Invalid({ photos: ['invalid'] });
      }
      if (Object.keys(liveChanges).length > 0)
        await recordRevision(trx, actor, { type: 'ad', id }, 'edit', liveChanges);
      await recordRevision(trx, actor, { type: 'ad', id }, pending ? 'replace-change' : 'propose-change', proposed);
      await announceAdChanges(trx, [id]);
      return { id, slug, status, changed, reviewed };
    }

    // Nothing waits any more: an edit that needs no review replaces the pending change.
    if (pending) {
      await dropPendingChange(trx, id);
      await recordRevision(trx, actor, { type: 'ad', id }, 'withdraw-change', toJson(pending.changes, {}));
    }
    if (changed.length === 0) {
      if (pending) await announceAdChanges(trx, [id]);
      return { id, slug: ad.slug, status, changed, reviewed };
    }

    // A rejected ad always goes back to the moderators who rejected it, whatever the mode.
    let next = status;
    if (status === 'rejected') next = 'pending';
    else if (status === 'draft') next = moderation === 'post' ? 'published' : 'pending';
    if (!ACTIVE_STATUSES.includes(status) && ACTIVE_STATUSES.includes(next)) await checkAllowance(trx, actor.id, now);

    const live = next === 'published' && status !== 'published';
    const slug = await writeAdValues(trx, ad, attributes, input, changes, {
      status: next,
      updated_at: now,
      ...(next === 'pending' ? { rejection_reason: null } : {}),
      ...(live
        ? { published_at: now, bumped_at: now, expires_at: new Date(now.getTime() + rules.lifetimeDays * DAY) }
        : {}),
    });
    if (next !== status) {
      changes.status = [status, next];
      await recordStatus(trx, id, { from: status, to: next, actor, now });
    }
    await recordRevision(trx, actor, { type: 'ad', id }, 'edit', changes);
    if (next !== status) await countersChanged(trx, ad);
    await announceAdChanges(trx, [id]);
    return { id, slug, status: next, changed, reviewed };
  });
}
