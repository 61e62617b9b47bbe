// Cities and their areas in the back office (docs/product/back-office.md, "Cities"): list, add,
// edit (names, slug, coordinates), order, delete and merge. A city or area that still has ads
// (in any status: the rows keep their place) is never deleted; it is merged into another, which
// moves its ads in one transaction together with everything that names the place: saved searches
// and their alert keys, members' cities, and the merged place's id kept as the other's
// (`merged_cities`, `merged_areas`, migration 0029). The text index names an ad's place by its id,
// not by its names (server/domain/search/text-index.ts), so a rename or a merge writes none of its
// rows: a query saying the place's names reads its keys, the merged ones' included
// (server/domain/search/catalogue-keys.ts). Search follows through the ads' `updated_at` (ADR
// 0008), the sitemap through the same dates, and this process's page cache and search catalogue
// through `catalogueChanged` once committed.

import { CITY_SORTS, type CitySort } from '../../../app/lib/admin-lists.ts';
import { withLargeCache } from '../../db/cache-size.ts';
import type { DB, DialectName } from '../../db/index.ts';
import { type Tx, withTransaction } from '../../db/transaction.ts';
import { toNumber } from '../../db/values.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { catalogueChanged } from '../catalogue-changes.ts';
import { Invalid, NotFound } from '../errors.ts';
import { type Cursor, containsAny, decodeCursor, keysetPage } from './keyset.ts';

export type PlaceInput = {
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
};

export interface PlaceRow extends PlaceInput {
  id: number;
  position: number;
  /** Ads placed here, in any status. */
  ads: number;
}

export interface CityRow extends PlaceRow {
  areas: number;
}

export interface AreaRow extends PlaceRow {
  city_id: number;
}

export { CITY_SORTS, type CitySort };

export const CITIES_PAGE_SIZE = 50;

const announce = (_tx: Tx, afterCommit: (fn: () => unknown) => void) =>
  afterCommit(() => catalogueChanged({ kind: 'places' }));

/** Ads per city (or per area of one city), for these ids: one probe of `ads_place` each. */
async function adCounts(db: DB, column: 'city_id' | 'area_id', ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('ads')
    .select([column, (eb) => eb.fn.countAll().as('n')])
    .where(column, 'in', ids)
    .groupBy(column)
    .execute();
  return new Map(rows.map((r) => [Number(r[column as keyof typeof r]), toNumber(r.n)]));
}

/** One page of the cities, searched by name or slug, in display order or by name. */
export async function listAdminCities(
  db: DB,
  query: { q: string; sort: CitySort; dir: 'asc' | 'desc'; after: string | null; locale: 'ar' | 'en' },
): Promise<{ rows: CityRow[]; next: string | null }> {
  let base = db
    .selectFrom('cities as c')
    .select(['c.id', 'c.slug', 'c.name_ar', 'c.name_en', 'c.lat', 'c.lng', 'c.position']);
  if (query.q) base = base.where(containsAny(['c.name_ar', 'c.name_en', 'c.slug'], query.q));
  const column = query.sort === 'name' ? (query.locale === 'ar' ? 'c.name_ar' : 'c.name_en') : 'c.position';
  const key = query.sort === 'name' ? (query.locale === 'ar' ? 'name_ar' : 'name_en') : 'position';
  const page = await keysetPage(base, {
    column,
    id: 'c.id',
    direction: query.dir,
    cursor: decodeCursor(query.after),
    limit: CITIES_PAGE_SIZE,
    keyOf: (r): Cursor => ({ value: r[key], id: r.id }),
  });
  const ids = page.rows.map((r) => r.id);
  const [ads, areas] = await Promise.all([
    adCounts(db, 'city_id', ids),
    ids.length === 0
      ? []
      : db
          .selectFrom('areas')
          .select(['city_id', (eb) => eb.fn.countAll().as('n')])
          .where('city_id', 'in', ids)
          .groupBy('city_id')
          .execute(),
  ]);
  const areaCount = new Map(areas.map((r) => [r.city_id, toNumber(r.n)]));
  return {
    rows: page.rows.map((r) => ({
      ...r,
      lat: Number(r.lat),
      lng: Number(r.lng),
      ads: ads.get(r.id) ?? 0,
      areas: areaCount.get(r.id) ?? 0,
    })),
    next: page.next,
  };
}

/** Every city's name (the merge target's choices), in display order. */
export async function cityChoices(db: DB): Promise<{ id: number; name_ar: string; name_en: string }[]> {
  return db.selectFrom('cities').select(['id', 'name_ar', 'name_en']).orderBy('position').orderBy('id').execute();
}

export async function getAdminCity(db: DB, id: number): Promise<CityRow> {
  const c = await db.selectFrom('cities').selectAll().where('id', '=', id).executeTakeFirst();
  if (!c) throw new NotFound('errors.not-found');
  const [ads, areas] = await Promise.all([
    adCounts(db, 'city_id', [id]),
    db
      .selectFrom('areas')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('city_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return { ...c, lat: Number(c.lat), lng: Number(c.lng), ads: ads.get(id) ?? 0, areas: toNumber(areas.n) };
}

/** A city's areas in display order, with their ads. */
export async function listAdminAreas(db: DB, cityId: number): Promise<AreaRow[]> {
  const rows = await db
    .selectFrom('areas')
    .selectAll()
    .where('city_id', '=', cityId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const ads = await adCounts(
    db,
    'area_id',
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, lat: Number(r.lat), lng: Number(r.lng), ads: ads.get(r.id) ?? 0 }));
}

type PlaceTable = 'cities' | 'areas';

/** Refuses a slug another city (or area) already has: `slug-taken`. */
async function checkSlug(tx: DB, table: PlaceTable, slug: string, except: number | null) {
  let q = tx.selectFrom(table).select('id').where('slug', '=', slug);
  if (except !== null) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new Invalid({ slug: ['slug-taken'] });
}

const subjectOf = (table: PlaceTable, id: number) => ({ type: table === 'cities' ? 'city' : 'area', id });

export async function createCity(db: DB, actor: Actor, input: PlaceInput): Promise<number> {
  return withTransaction(db, async (tx, { afterCommit }) => {
    await checkSlug(tx, 'cities', input.slug, null);
    const last = await tx
      .selectFrom('cities')
      .select((eb) => eb.fn.max('position').as('p'))
      .executeTakeFirst();
    const position = last?.p === null || last?.p === undefined ? 0 : toNumber(last.p) + 1;
    const row = await tx
      .insertInto('cities')
      .values({ ...input, position })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(tx, actor, subjectOf('cities', id), 'create', changedFields(null, { ...input, position }));
    announce(tx, afterCommit);
    return id;
  });
}

export async function createArea(db: DB, actor: Actor, cityId: number, input: PlaceInput): Promise<number> {
  return withTransaction(db, async (tx, { afterCommit }) => {
    const city = await tx.selectFrom('cities').select('id').where('id', '=', cityId).executeTakeFirst();
    if (!city) throw new NotFound('errors.not-found');
    await checkSlug(tx, 'areas', input.slug, null);
    const last = await tx
      .selectFrom('areas')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('city_id', '=', cityId)
      .executeTakeFirst();
    const position = last?.p === null || last?.p === undefined ? 0 : toNumber(last.p) + 1;
    const row = await tx
      .insertInto('areas')
      .values({ ...input, city_id: cityId, position })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(
      tx,
      actor,
      subjectOf('areas', id),
      'create',
      changedFields(null, { ...input, city_id: cityId, position }),
    );
    announce(tx, afterCommit);
    return id;
  });
}

/**
 * Edits a city's or area's names, slug and coordinates (`cityId`: the area's city, checked).
 * A renamed place's ads are found by its new names at once (the search reads them from the
 * catalogue) and no ad changes. Returns whether anything changed.
 */
async function updatePlace(
  db: DB,
  actor: Actor,
  table: PlaceTable,
  id: number,
  input: PlaceInput,
  cityId?: number,
): Promise<boolean> {
  return withTransaction(db, async (tx, { afterCommit }) => {
    const row =
      table === 'cities'
        ? await tx
            .selectFrom('cities')
            .select(['id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
            .where('id', '=', id)
            .executeTakeFirst()
        : await tx
            .selectFrom('areas')
            .select(['id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
            .where('id', '=', id)
            .where('city_id', '=', cityId ?? -1)
            .executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    const { id: _id, ...before } = row;
    const changes = changedFields<PlaceInput>({ ...before, lat: Number(before.lat), lng: Number(before.lng) }, input);
    if (Object.keys(changes).length === 0) return false;
    if (changes.slug) await checkSlug(tx, table, input.slug, id);
    await tx.updateTable(table).set(input).where('id', '=', id).execute();
    await recordRevision(tx, actor, subjectOf(table, id), 'update', changes);
    // New names and moved coordinates reach the map when the search engine sees the catalogue change (it builds
    // its index again: server/domain/search/service.ts).
    announce(tx, afterCommit);
    return true;
  });
}

export const updateCity = (db: DB, actor: Actor, id: number, input: PlaceInput) =>
  updatePlace(db, actor, 'cities', id, input);

export const updateArea = (db: DB, actor: Actor, cityId: number, id: number, input: PlaceInput) =>
  updatePlace(db, actor, 'areas', id, input, cityId);

/**
 * Moves a city (or an area among its city's areas) one place up or down the display order: the
 * list is numbered again 0, 1, 2… with the two swapped (positions may have been equal). Returns
 * whether it moved (the first cannot go up).
 */
async function movePlace(
  db: DB,
  actor: Actor,
  table: PlaceTable,
  id: number,
  direction: 'up' | 'down',
  cityId?: number,
): Promise<boolean> {
  return withTransaction(db, async (tx, { afterCommit }) => {
    let q = tx.selectFrom(table).select(['id', 'position']).orderBy('position').orderBy('id');
    if (table === 'areas') q = q.where('city_id' as never, '=', cityId as never);
    const rows = await q.execute();
    const at = rows.findIndex((r) => r.id === id);
    if (at < 0) throw new NotFound('errors.not-found');
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= rows.length) return false;
    const order = rows.map((r) => r.id);
    [order[at], order[to]] = [order[to] as number, order[at] as number];
    for (let i = 0; i < order.length; i++) {
      const row = rows.find((r) => r.id === order[i]);
      if (row && row.position !== i)
        await tx.updateTable(table).set({ position: i }).where('id', '=', row.id).execute();
    }
    await recordRevision(tx, actor, subjectOf(table, id), 'move', { position: [at, to] });
    announce(tx, afterCommit);
    return true;
  });
}

export const moveCity = (db: DB, actor: Actor, id: number, direction: 'up' | 'down') =>
  movePlace(db, actor, 'cities', id, direction);

export const moveArea = (db: DB, actor: Actor, cityId: number, id: number, direction: 'up' | 'down') =>
  movePlace(db, actor, 'areas', id, direction, cityId);

const hasAdsError = () => new Invalid({ form: ['admin:places.errors.has-ads'] });

/** Deletes a city without ads (its areas go with it; members who named it as theirs keep no city). */
export async function deleteCity(db: DB, actor: Actor, id: number): Promise<void> {
  await withTransaction(db, async (tx, { afterCommit }) => {
    const city = await tx.selectFrom('cities').selectAll().where('id', '=', id).executeTakeFirst();
    if (!city) throw new NotFound('errors.not-found');
    if (await tx.selectFrom('ads').select('id').where('city_id', '=', id).limit(1).executeTakeFirst()) {
      throw hasAdsError();
    }
    const areas = await tx.selectFrom('areas').select('id').where('city_id', '=', id).execute();
    await tx.deleteFrom('areas').where('city_id', '=', id).execute();
    await tx.deleteFrom('cities').where('id', '=', id).execute();
    await recordRevision(tx, actor, subjectOf('cities', id), 'delete', {
      ...{ slug: [city.slug, null], name_ar: [city.name_ar, null], name_en: [city.name_en, null] },
      areas: [areas.map((a) => a.id), []],
    });
    announce(tx, afterCommit);
  });
}

export async function deleteArea(db: DB, actor: Actor, cityId: number, id: number): Promise<void> {
  await withTransaction(db, async (tx, { afterCommit }) => {
    const area = await tx
      .selectFrom('areas')
      .selectAll()
      .where('id', '=', id)
      .where('city_id', '=', cityId)
      .executeTakeFirst();
    if (!area) throw new NotFound('errors.not-found');
    if (await tx.selectFrom('ads').select('id').where('area_id', '=', id).limit(1).executeTakeFirst()) {
      throw hasAdsError();
    }
    await tx.deleteFrom('areas').where('id', '=', id).execute();
    await recordRevision(tx, actor, subjectOf('areas', id), 'delete', {
      slug: [area.slug, null],
      name_ar: [area.name_ar, null],
      name_en: [area.name_en, null],
    });
    announce(tx, afterCommit);
  });
}

/**
 * Moves the ads of one place to another (`column`: city or area), dated now so every process's
 * search index re-reads them and the sitemap's chunks move. Returns how many moved.
 */
async function moveAds(
  tx: Tx,
  dialect: DialectName,
  column: 'city_id' | 'area_id',
  from: number,
  into: number,
  now: Date,
): Promise<number> {
  const result = await withLargeCache(tx, dialect, () =>
    tx
      .updateTable('ads')
      .set({ [column]: into, updated_at: now })
      .where(column, '=', from)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows);
}

/**
 * Keeps the id of a place merged away as one of `into`'s (the text index's rows of its ads name it
 * until they are next written), with those merged into it before.
 */
async function keepMergedId(tx: Tx, kind: 'city' | 'area', from: number, into: number) {
  if (kind === 'city') {
    await tx.updateTable('merged_cities').set({ city_id: into }).where('city_id', '=', from).execute();
    await tx
      .insertInto('merged_cities')
      .values({ id: from, city_id: into })
      .onConflict((oc) => oc.column('id').doUpdateSet({ city_id: into }))
      .execute();
  } else {
    await tx.updateTable('merged_areas').set({ area_id: into }).where('area_id', '=', from).execute();
    await tx
      .insertInto('merged_areas')
      .values({ id: from, area_id: into })
      .onConflict((oc) => oc.column('id').doUpdateSet({ area_id: into }))
      .execute();
  }
}

/**
 * Merges city `from` into city `into`: every ad of `from` moves to `into` (in one transaction,
 * with their dates; their text rows keep `from`'s key, which now means `into`), the areas of
 * `from` become areas of `into` (after its own, in their order: an ad keeps its area), saved
 * searches and members naming `from` name `into`, and `from` is deleted. Returns how many ads
 * moved.
 */
export async function mergeCity(
  db: DB,
  dialect: DialectName,
  actor: Actor,
  from: number,
  into: number,
  now = new Date(),
): Promise<number> {
  if (from === into) throw new Invalid({ into: ['merge-self'] });
  return withTransaction(db, async (tx, { afterCommit }) => {
    const [source, target] = await Promise.all([
      tx.selectFrom('cities').selectAll().where('id', '=', from).executeTakeFirst(),
      tx.selectFrom('cities').selectAll().where('id', '=', into).executeTakeFirst(),
    ]);
    if (!source) throw new NotFound('errors.not-found');
    if (!target) throw new Invalid({ into: ['in'] });
    const moved = await moveAds(tx, dialect, 'city_id', from, into, now);

    const areas = await tx
      .selectFrom('areas')
      .select('id')
      .where('city_id', '=', from)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const last = await tx
      .selectFrom('areas')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('city_id', '=', into)
      .executeTakeFirst();
    let position = last?.p === null || last?.p === undefined ? 0 : toNumber(last.p) + 1;
    for (const a of areas) {
      await tx.updateTable('areas').set({ city_id: into, position: position++ }).where('id', '=', a.id).execute();
    }
    await tx.updateTable('users').set({ city_id: into }).where('city_id', '=', from).execute();
    await moveSavedSearches(tx, { city: [source.slug, target.slug], cityId: [from, into] });
    await keepMergedId(tx, 'city', from, into);
    await tx.deleteFrom('cities').where('id', '=', from).execute();
    await recordRevision(tx, actor, subjectOf('cities', from), 'merge', {
      merged_into: [null, into],
      ads: [moved, 0],
      areas: [areas.map((a) => a.id), []],
    });
    await recordRevision(tx, actor, subjectOf('cities', into), 'merge-in', {
      merged_from: [null, from],
      ads: [null, moved],
    });
    announce(tx, afterCommit);
    return moved;
  });
}

/** Merges area `from` into area `into` of the same city: its ads move there, then it is deleted. */
export async function mergeArea(
  db: DB,
  dialect: DialectName,
  actor: Actor,
  cityId: number,
  from: number,
  into: number,
  now = new Date(),
): Promise<number> {
  if (from === into) throw new Invalid({ into: ['merge-self'] });
  return withTransaction(db, async (tx, { afterCommit }) => {
    const [source, target] = await Promise.all([
      tx.selectFrom('areas').selectAll().where('id', '=', from).where('city_id', '=', cityId).executeTakeFirst(),
      tx.selectFrom('areas').selectAll().where('id', '=', into).where('city_id', '=', cityId).executeTakeFirst(),
    ]);
    if (!source) throw new NotFound('errors.not-found');
    if (!target) throw new Invalid({ into: ['in'] });
    const moved = await moveAds(tx, dialect, 'area_id', from, into, now);
    await moveSavedSearches(tx, { area: [source.slug, target.slug], areaId: [from, into] });
    await keepMergedId(tx, 'area', from, into);
    await tx.deleteFrom('areas').where('id', '=', from).execute();
    await recordRevision(tx, actor, subjectOf('areas', from), 'merge', {
      merged_into: [null, into],
      ads: [moved, 0],
    });
    await recordRevision(tx, actor, subjectOf('areas', into), 'merge-in', {
      merged_from: [null, from],
      ads: [null, moved],
    });
    announce(tx, afterCommit);
    return moved;
  });
}

/**
 * Saved searches narrowed to the merged city (or area) keep their meaning: their query names the
 * place merged into, and their alert keys (saved_search_index, migration 0020) follow.
 */
async function moveSavedSearches(
  tx: Tx,
  change: { city: [string, string]; cityId: [number, number] } | { area: [string, string]; areaId: [number, number] },
): Promise<void> {
  const [param, [fromSlug, toSlug], column, [fromId, toId]] =
    'city' in change
      ? (['city', change.city, 'city_id', change.cityId] as const)
      : (['area', change.area, 'area_id', change.areaId] as const);
  const rows = await tx
    .selectFrom('saved_search_index as i')
    .innerJoin('saved_searches as s', 's.id', 'i.saved_search_id')
    .select(['s.id', 's.user_id', 's.query'])
    .where(`i.${column}`, '=', fromId)
    .execute();
  for (const r of rows) {
    const params = new URLSearchParams(r.query);
    if (params.get(param) === fromSlug) params.set(param, toSlug);
    const query = params.toString();
    // The member already keeps that very search: the merged one is the same search now.
    const twin = await tx
      .selectFrom('saved_searches')
      .select('id')
      .where('user_id', '=', r.user_id)
      .where('query', '=', query)
      .where('id', '!=', r.id)
      .executeTakeFirst();
    if (twin) await tx.deleteFrom('saved_searches').where('id', '=', r.id).execute();
    else await tx.updateTable('saved_searches').set({ query }).where('id', '=', r.id).execute();
  }
  await tx
    .updateTable('saved_search_index')
    .set({ [column]: toId })
    .where(column, '=', fromId)
    .execute();
}

/** What a delete or merge of a city would touch (the confirmation's figures, computed again on submit). */
export async function placeImpact(db: DB, kind: 'city' | 'area', id: number): Promise<{ ads: number }> {
  const counts = await adCounts(db, kind === 'city' ? 'city_id' : 'area_id', [id]);
  return { ads: counts.get(id) ?? 0 };
}
