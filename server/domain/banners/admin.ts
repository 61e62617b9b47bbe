// The back office's banners (docs/product/back-office.md, "Banners"): the list, one banner with its
// figures per day, and the changes (create, edit, switch on or off, delete). Each change writes a
// revision in its own transaction and, once committed, tells the page cache which placements
// changed (./changes.ts). Images are processed before the transaction (seconds of CPU must not hold
// it open); files that end up unused are deleted after the commit, or at once when it fails.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { ListQuery } from '../../../app/lib/admin-list.ts';
import {
  BANNER_SLOTS,
  BANNER_SORTS,
  BANNER_STATES,
  type BannerPlacement,
  type BannerSlot,
  type BannerSort,
  type BannerState,
  isHomePlacement,
  REQUIRED_SLOT,
} from '../../../app/lib/banners.ts';
import { libyaToday } from '../../../app/lib/validation/moderation.ts';
import type { DB } from '../../db/index.ts';
import type { BannerImage } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toJson, toNumber } from '../../db/values.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { containsAny, decodeCursor, keysetPage } from '../admin/keyset.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';
import { bannersChanged } from './changes.ts';
import { bannerImageUrl, deleteBannerFiles, storeBannerImage } from './images.ts';

export { BANNER_SORTS, BANNER_STATES, type BannerSort, type BannerState };
export const BANNERS_PAGE_SIZE = 25;
/** Days of figures a banner's page shows. */
export const BANNER_STATS_DAYS = 30;

type Images = Partial<Record<BannerSlot, BannerImage>>;

const LIBYA_OFFSET = '+02:00';
/** The first moment of a Libyan calendar day, and the last. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000${LIBYA_OFFSET}`);
const dayEnd = (day: string) => new Date(`${day}T23:59:59.999${LIBYA_OFFSET}`);
/** The Libyan day of a stored moment. */
const dayOf = (v: unknown): string | null => (v === null || v === undefined ? null : libyaToday(new Date(toIso(v))));

/** What a banner is at `now`: switched off, waiting for its first day, showing, or past its last day. */
export function bannerState(row: { active: unknown; starts_at: unknown; ends_at: unknown }, now: Date): BannerState {
  if (!toBool(row.active)) return 'off';
  if (row.starts_at && new Date(toIso(row.starts_at)) > now) return 'scheduled';
  if (row.ends_at && new Date(toIso(row.ends_at)) <= now) return 'ended';
  return 'live';
}

/** The SQL condition of "shown at `now`" (switched on, within its schedule). */
export function liveCondition(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`(b.active = ${true} and (b.starts_at is null or b.starts_at <= ${now}) and (b.ends_at is null or b.ends_at > ${now}))`;
}

export interface BannerListRow {
  id: number;
  title_ar: string;
  title_en: string | null;
  placement: BannerPlacement;
  link: string;
  state: BannerState;
  starts_on: string | null;
  ends_on: string | null;
  position: number;
  target: { taxonomy: Named | null; category: Named | null; city: Named | null };
  thumb: string | null;
  impressions: number;
  clicks: number;
  created_at: string;
}

type Named = { name_ar: string; name_en: string };

export async function listBanners(
  db: DB,
  query: ListQuery<BannerSort>,
  now = new Date(),
): Promise<{ rows: BannerListRow[]; next: string | null }> {
  let q = db
    .selectFrom('banners as b')
    .leftJoin('taxonomies as t', 't.id', 'b.taxonomy_id')
    .leftJoin('categories as c', 'c.id', 'b.category_id')
    .leftJoin('cities as ci', 'ci.id', 'b.city_id')
    .select([
      'b.id',
      'b.title_ar',
      'b.title_en',
      'b.placement',
      'b.link',
      'b.active',
      'b.starts_at',
      'b.ends_at',
      'b.position',
      'b.images',
      'b.created_at',
      't.name_ar as t_ar',
      't.name_en as t_en',
      'c.name_ar as c_ar',
      'c.name_en as c_en',
      'ci.name_ar as ci_ar',
      'ci.name_en as ci_en',
      sql<number | string>`(select coalesce(sum(s.impressions), 0) from banner_stats s where s.banner_id = b.id)`.as(
        'impressions',
      ),
      sql<number | string>`(select coalesce(sum(s.clicks), 0) from banner_stats s where s.banner_id = b.id)`.as(
        'clicks',
      ),
    ]);
  if (query.q) q = q.where(containsAny(['b.title_ar', 'b.title_en', 'b.link'], query.q));
  const placement = query.filters.placement as BannerPlacement | undefined;
  if (placement) q = q.where('b.placement', '=', placement);
  switch (query.filters.state as BannerState | undefined) {
    case 'off':
      q = q.where('b.active', '=', false);
      break;
    case 'live':
      q = q.where(liveCondition(now));
      break;
    case 'scheduled':
      q = q.where('b.active', '=', true).where('b.starts_at', '>', now);
      break;
    case 'ended':
      q = q.where('b.active', '=', true).where('b.ends_at', '<=', now);
      break;
  }
  const column = query.sort === 'created_at' ? 'b.created_at' : 'b.position';
  const page = await keysetPage(q, {
    column,
    id: 'b.id',
    direction: query.dir,
    cursor: decodeCursor(query.after),
    limit: BANNERS_PAGE_SIZE,
    keyOf: (r) => ({ value: query.sort === 'created_at' ? toIso(r.created_at) : Number(r.position), id: Number(r.id) }),
  });
  return {
    next: page.next,
    rows: page.rows.map((r) => {
      const images = toJson<Images>(r.images, {});
      const first = images[REQUIRED_SLOT];
      return {
        id: Number(r.id),
        title_ar: r.title_ar,
        title_en: r.title_en,
        placement: r.placement,
        link: r.link,
        state: bannerState(r, now),
        starts_on: dayOf(r.starts_at),
        ends_on: dayOf(r.ends_at),
        position: Number(r.position),
        target: {
          taxonomy: r.t_ar !== null ? { name_ar: r.t_ar, name_en: r.t_en ?? r.t_ar } : null,
          category: r.c_ar !== null ? { name_ar: r.c_ar, name_en: r.c_en ?? r.c_ar } : null,
          city: r.ci_ar !== null ? { name_ar: r.ci_ar, name_en: r.ci_en ?? r.ci_ar } : null,
        },
        thumb: first ? bannerImageUrl(first, 'small') : null,
        impressions: toNumber(r.impressions),
        clicks: toNumber(r.clicks),
        created_at: toIso(r.created_at),
      };
    }),
  };
}

export interface BannerDetail {
  id: number;
  title_ar: string;
  title_en: string | null;
  link: string;
  placement: BannerPlacement;
  taxonomy_id: number | null;
  category_id: number | null;
  city_id: number | null;
  starts_on: string | null;
  ends_on: string | null;
  active: boolean;
  position: number;
  state: BannerState;
  /** Each stored slot's preview URL. */
  images: Partial<Record<BannerSlot, string>>;
  created_at: string;
  updated_at: string;
}

async function readBanner(db: DB, id: number) {
  return db.selectFrom('banners as b').selectAll('b').where('b.id', '=', id).executeTakeFirst();
}

export async function getBanner(db: DB, id: number, now = new Date()): Promise<BannerDetail> {
  const row = await readBanner(db, id);
  if (!row) throw new NotFound('errors.not-found');
  const images = toJson<Images>(row.images, {});
  return {
    id: Number(row.id),
    title_ar: row.title_ar,
    title_en: row.title_en,
    link: row.link,
    placement: row.placement,
    taxonomy_id: row.taxonomy_id === null ? null : Number(row.taxonomy_id),
    category_id: row.category_id === null ? null : Number(row.category_id),
    city_id: row.city_id === null ? null : Number(row.city_id),
    starts_on: dayOf(row.starts_at),
    ends_on: dayOf(row.ends_at),
    active: toBool(row.active),
    position: Number(row.position),
    state: bannerState(row, now),
    images: Object.fromEntries(
      BANNER_SLOTS.flatMap((s) => {
        const image = images[s];
        return image ? [[s, bannerImageUrl(image, 'medium')]] : [];
      }),
    ),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export interface DayFigures {
  day: string;
  impressions: number;
  clicks: number;
}

/** The last `days` Libyan days (oldest first, today last), days without figures as zeros, and the totals. */
export async function bannerStats(
  db: DB,
  id: number,
  days = BANNER_STATS_DAYS,
  now = new Date(),
): Promise<{ days: DayFigures[]; total: { impressions: number; clicks: number } }> {
  const today = libyaToday(now);
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [rows, total] = await Promise.all([
    db
      .selectFrom('banner_stats')
      .select(['day', 'impressions', 'clicks'])
      .where('banner_id', '=', id)
      .where('day', '>=', first)
      .where('day', '<=', today)
      .execute(),
    db
      .selectFrom('banner_stats')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum('impressions'), sql.lit(0)).as('impressions'),
        eb.fn.coalesce(eb.fn.sum('clicks'), sql.lit(0)).as('clicks'),
      ])
      .where('banner_id', '=', id)
      .executeTakeFirst(),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const list: DayFigures[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
    const r = byDay.get(day);
    list.push({ day, impressions: toNumber(r?.impressions ?? 0), clicks: toNumber(r?.clicks ?? 0) });
  }
  return { days: list, total: { impressions: toNumber(total?.impressions), clicks: toNumber(total?.clicks) } };
}

/** A banner form's values (app/lib/validation/banners.ts), with the uploaded images' bytes. */
export interface BannerInput {
  title_ar: string;
  title_en?: string;
  link: string;
  placement: BannerPlacement;
  taxonomy?: string;
  category?: string;
  city?: string;
  starts_on?: string;
  ends_on?: string;
  active: boolean;
  position?: number;
  /** New images by slot. */
  uploads: Partial<Record<BannerSlot, Buffer>>;
  /** Optional slots to empty. */
  remove: BannerSlot[];
}

/** The targeting of `input` as ids, checked against the catalogue (home placements have none). */
async function targeting(db: DB, input: BannerInput) {
  if (isHomePlacement(input.placement)) return { taxonomy_id: null, category_id: null, city_id: null };
  const errors: Record<string, string[]> = {};
  let taxonomyId = input.taxonomy ? Number(input.taxonomy) : null;
  const categoryId = input.category ? Number(input.category) : null;
  const cityId = input.city ? Number(input.city) : null;
  if (taxonomyId !== null) {
    const t = await db.selectFrom('taxonomies').select('id').where('id', '=', taxonomyId).executeTakeFirst();
    if (!t) errors.taxonomy = ['in'];
  }
  if (categoryId !== null) {
    const c = await db
      .selectFrom('categories')
      .select(['id', 'taxonomy_id'])
      .where('id', '=', categoryId)
      .executeTakeFirst();
    if (!c) errors.category = ['in'];
    else if (taxonomyId === null) taxonomyId = Number(c.taxonomy_id);
    else if (Number(c.taxonomy_id) !== taxonomyId) errors.category = ['category-outside-taxonomy'];
  }
  if (cityId !== null) {
    const c = await db.selectFrom('cities').select('id').where('id', '=', cityId).executeTakeFirst();
    if (!c) errors.city = ['in'];
  }
  if (Object.keys(errors).length > 0) throw new Invalid(errors);
  return { taxonomy_id: taxonomyId, category_id: categoryId, city_id: cityId };
}

/** The revision's view of a stored row (images by their keys). */
function auditView(row: {
  title_ar: string;
  title_en: string | null;
  link: string;
  placement: string;
  taxonomy_id: number | null;
  category_id: number | null;
  city_id: number | null;
  starts_at: unknown;
  ends_at: unknown;
  active: unknown;
  position: number;
  images: unknown;
}) {
  const images = toJson<Images>(row.images, {});
  return {
    title_ar: row.title_ar,
    title_en: row.title_en,
    link: row.link,
    placement: row.placement,
    taxonomy_id: row.taxonomy_id === null ? null : Number(row.taxonomy_id),
    category_id: row.category_id === null ? null : Number(row.category_id),
    city_id: row.city_id === null ? null : Number(row.city_id),
    starts_at: row.starts_at ? toIso(row.starts_at) : null,
    ends_at: row.ends_at ? toIso(row.ends_at) : null,
    active: toBool(row.active),
    position: Number(row.position),
    images: Object.fromEntries(BANNER_SLOTS.flatMap((s) => (images[s] ? [[s, images[s]?.key]] : []))),
  };
}

/**
 * Creates (`id` null) or edits a banner. Refusals: Invalid with field errors (an image the pipeline
 * refuses is reported on its own input; an unknown taxonomy, category or city), NotFound.
 */
export async function saveBanner(
  db: DB,
  storage: MediaStorage,
  actor: Actor,
  id: number | null,
  input: BannerInput,
  options: { maxImageBytes: number; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  const before = id === null ? null : await readBanner(db, id);
  if (id !== null && !before) throw new NotFound('errors.not-found');
  const target = await targeting(db, input);

  // The uploads, each checked by its content; a refusal names its input.
  const stored: Images = {};
  const fresh = () => Object.values(stored) as BannerImage[];
  try {
    for (const slot of BANNER_SLOTS) {
      const bytes = input.uploads[slot];
      if (!bytes) continue;
      try {
        stored[slot] = await storeBannerImage(storage, bytes, options.maxImageBytes, now);
      } catch (error) {
        if (error instanceof Invalid && error.errors.image) {
          throw new Invalid({ [`image_${slot.replace('-', '_')}`]: error.errors.image });
        }
        throw error;
      }
    }
  } catch (error) {
    await deleteBannerFiles(storage, fresh());
    throw error;
  }

  const old = toJson<Images>(before?.images ?? null, {});
  const images: Images = { ...old };
  const dropped: BannerImage[] = [];
  for (const slot of BANNER_SLOTS) {
    const replaced = stored[slot];
    const current = old[slot];
    if (replaced) {
      if (current) dropped.push(current);
      images[slot] = replaced;
    } else if (slot !== REQUIRED_SLOT && input.remove.includes(slot) && current) {
      dropped.push(current);
      delete images[slot];
    }
  }
  if (!images[REQUIRED_SLOT]) {
    await deleteBannerFiles(storage, fresh());
    throw new Invalid({ [`image_${REQUIRED_SLOT.replace('-', '_')}`]: ['required'] });
  }
  const values = {
    title_ar: input.title_ar,
    title_en: input.title_en ?? null,
    link: input.link,
    placement: input.placement,
    ...target,
    starts_at: input.starts_on ? dayStart(input.starts_on) : null,
    ends_at: input.ends_on ? dayEnd(input.ends_on) : null,
    active: input.active,
    position: input.position ?? 0,
    images: JSON.stringify(images),
  };
  try {
    return await withTransaction(db, async (tx, { afterCommit }) => {
      let bannerId: number;
      if (id === null || !before) {
        const row = await tx.insertInto('banners').values(values).returning('id').executeTakeFirstOrThrow();
        bannerId = Number(row.id);
        await recordRevision(
          tx,
          actor,
          { type: 'banner', id: bannerId },
          'created',
          changedFields(null, auditView(values)),
        );
      } else {
        bannerId = id;
        const changes = changedFields(auditView(before), auditView(values));
        await tx
          .updateTable('banners')
          .set({ ...values, updated_at: now })
          .where('id', '=', id)
          .execute();
        if (Object.keys(changes).length > 0) {
          await recordRevision(tx, actor, { type: 'banner', id }, 'updated', changes);
        }
      }
      afterCommit(() => deleteBannerFiles(storage, dropped));
      afterCommit(() => bannersChanged(before ? [before.placement, input.placement] : [input.placement]));
      return bannerId;
    });
  } catch (error) {
    await deleteBannerFiles(storage, fresh());
    throw error;
  }
}

/** Deletes banners (their figures go with them); unknown ids are skipped. Returns how many went. */
export async function deleteBanners(
  db: DB,
  storage: MediaStorage,
  actor: Actor,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  return withTransaction(db, async (tx, { afterCommit }) => {
    const rows = await tx
      .selectFrom('banners')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
    if (rows.length === 0) return 0;
    await tx
      .deleteFrom('banners')
      .where(
        'id',
        'in',
        rows.map((r) => Number(r.id)),
      )
      .execute();
    for (const r of rows) {
      await recordRevision(tx, actor, { type: 'banner', id: Number(r.id) }, 'deleted', changedFields(auditView(r), {}));
    }
    const files = rows.flatMap((r) => Object.values(toJson<Images>(r.images, {})) as BannerImage[]);
    afterCommit(() => deleteBannerFiles(storage, files));
    afterCommit(() => bannersChanged(rows.map((r) => r.placement)));
    return rows.length;
  });
}

/** Switches banners on or off; those already so, and unknown ids, are skipped. Returns how many changed. */
export async function setBannersActive(db: DB, actor: Actor, ids: readonly number[], active: boolean): Promise<number> {
  if (ids.length === 0) return 0;
  return withTransaction(db, async (tx, { afterCommit }) => {
    const rows = await tx
      .selectFrom('banners')
      .select(['id', 'placement', 'active'])
      .where('id', 'in', [...ids])
      .execute();
    const changing = rows.filter((r) => toBool(r.active) !== active);
    if (changing.length === 0) return 0;
    await tx
      .updateTable('banners')
      .set({ active, updated_at: new Date() })
      .where(
        'id',
        'in',
        changing.map((r) => Number(r.id)),
      )
      .execute();
    for (const r of changing) {
      await recordRevision(tx, actor, { type: 'banner', id: Number(r.id) }, 'updated', { active: [!active, active] });
    }
    afterCommit(() => bannersChanged(changing.map((r) => r.placement)));
    return changing.length;
  });
}

export interface TargetOption {
  id: number;
  name_ar: string;
  name_en: string;
}

/** What a banner may be aimed at: taxonomies, every category (named by its path), cities. */
export async function bannerTargetOptions(db: DB): Promise<{
  taxonomies: TargetOption[];
  categories: (TargetOption & { taxonomy_id: number })[];
  cities: TargetOption[];
}> {
  const [taxonomies, categories, cities] = await Promise.all([
    db.selectFrom('taxonomies').select(['id', 'name_ar', 'name_en']).orderBy('position').orderBy('id').execute(),
    db
      .selectFrom('categories')
      .select(['id', 'taxonomy_id', 'parent_id', 'name_ar', 'name_en', 'position'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('cities').select(['id', 'name_ar', 'name_en']).orderBy('position').orderBy('id').execute(),
  ]);
  const byId = new Map(categories.map((c) => [Number(c.id), c]));
  const children = new Map<number | null, typeof categories>();
  for (const c of categories) {
    const parent = c.parent_id === null ? null : Number(c.parent_id);
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  // Depth first under each taxonomy, so a category follows its parent; named "Cars › Toyota".
  const named: (TargetOption & { taxonomy_id: number })[] = [];
  const walk = (parent: number | null, taxonomyId: number, path: { ar: string[]; en: string[] }) => {
    for (const c of children.get(parent) ?? []) {
      if (Number(c.taxonomy_id) !== taxonomyId || !byId.has(Number(c.id))) continue;
      const next = { ar: [...path.ar, c.name_ar], en: [...path.en, c.name_en] };
      named.push({
        id: Number(c.id),
        taxonomy_id: taxonomyId,
        name_ar: next.ar.join(' › '),
        name_en: next.en.join(' › '),
      });
      walk(Number(c.id), taxonomyId, next);
    }
  };
  for (const t of taxonomies) walk(null, Number(t.id), { ar: [], en: [] });
  const plain = (r: { id: number; name_ar: string; name_en: string }) => ({
    id: Number(r.id),
    name_ar: r.name_ar,
    name_en: r.name_en,
  });
  return { taxonomies: taxonomies.map(plain), categories: named, cities: cities.map(plain) };
}
