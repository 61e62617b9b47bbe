// The search index of published ads, in memory (ADR 0008): one typed-array column per field a
// query filters, sorts or facets on — category, city, area, price, photos, last bump, featured
// until, map position — plus the filterable attribute values, for a million ads in about 100 MB.
// A query is one pass over these columns (a few milliseconds for a million ads), which is what lets
// facet counts and map clusters stay exact and fast on any filter; the database keeps the text
// index (FTS5 / tsvector), which narrows a text query to its matching ids first.
//
// Freshness: every write to an ad sets `ads.updated_at`. Before each search the index asks the
// database for the newest `updated_at` (an index lookup) and, when it moved, re-reads the ads
// changed since a little before what it had seen (REREAD_WINDOW_MS covers transactions that
// committed late). So every process sees every other process's writes on its next search. An ad
// that changes gets a new slot and its old one dies; when dead slots pile up (or every
// REBUILD_EVERY_MS) the index is rebuilt from scratch in the background and swapped in.
import { type RawBuilder, sql } from 'kysely';
import { epochMs, listAgg, numbersOf, stringsOf } from '../../db/bulk-read.ts';
import { timestampValue } from '../../db/dates.ts';
import type { DB, DialectName } from '../../db/index.ts';
import { toNumber } from '../../db/values.ts';
import { approximateLocation, jitter } from '../geo.ts';
import type { CatalogueSnapshot, SnapAttribute } from './catalogue.ts';

export const REREAD_WINDOW_MS = 10_000;
export const REBUILD_EVERY_MS = 30 * 60_000;
const FILTER_TYPES = new Set(['select', 'multiselect', 'number', 'year', 'boolean']);

/** Whether search filters on the attribute (and the index keeps its values). */
export const isFilterable = (a: Pick<SnapAttribute, 'filterable' | 'type'>) => a.filterable && FILTER_TYPES.has(a.type);

/** The values of one filterable attribute: parallel lists of (slot, value); options by their index. */
interface AttributeColumn {
  slots: Int32Array;
  values: Float64Array;
  length: number;
}

export interface AttributeTest {
  id: number;
  /** By option index: 1 for the options wanted (select types); null for a range. */
  set: Uint8Array | null;
  lo: number;
  hi: number;
}

/** USD prices sort among LYD prices at this rate (an order, not a quote). */
export const USD_IN_LYD = 5;

export interface ScanFilter {
  /** By category id: 1 where the category is in the query's scope; null for every category. */
  categories: Uint8Array | null;
  priceMin: number | null;
  priceMax: number | null;
  /** 0 LYD, 1 USD: the currency price bounds apply in. */
  currency: number;
  photos: boolean;
  /** Bumped at or after (ms since the epoch); 0 for any time. */
  since: number;
  /** Every one must hold: the value is one of `set` (option indexes), or within [lo, hi]. */
  attributes: AttributeTest[];
  /** Ad ids to consider (a text match); null for every ad. */
  candidates: number[] | null;
  /** [south, west, north, east] of the map's viewport, or null. */
  bbox: [number, number, number, number] | null;
}

const grow = <T extends Int32Array | Uint16Array | Uint8Array | Float64Array | Float32Array | Uint32Array>(
  a: T,
  size: number,
): T => {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
};

export class AdIndex {
  size = 0;
  live = 0;
  id = new Int32Array(1024);
  category = new Uint16Array(1024);
  city = new Uint16Array(1024);
  area = new Uint16Array(1024);
  /** NaN when the ad has no amount (free, on request, exchange). */
  price = new Float64Array(1024);
  /** The price in LYD for sorting (USD at USD_IN_LYD); NaN without an amount. */
  priceLyd = new Float64Array(1024);
  currency = new Uint8Array(1024);
  photos = new Uint8Array(1024);
  alive = new Uint8Array(1024);
  bumped = new Float64Array(1024);
  featuredUntil = new Float64Array(1024);
  lat = new Float32Array(1024);
  lng = new Float32Array(1024);
  /** Slot of each ad id (-1: not in the index). */
  slotOf = new Int32Array(1024).fill(-1);
  attributes = new Map<number, AttributeColumn>();
  /** Per-slot marks of attribute filters passed, offset by a per-scan base so they never need clearing. */
  #marks = new Uint32Array(1024);
  #markBase = 0;

  #ensure(slots: number, maxId: number) {
    if (slots > this.id.length) {
      const n = Math.max(slots, this.id.length * 2);
      this.id = grow(this.id, n);
      this.category = grow(this.category, n);
      this.city = grow(this.city, n);
      this.area = grow(this.area, n);
      this.price = grow(this.price, n);
      this.priceLyd = grow(this.priceLyd, n);
      this.currency = grow(this.currency, n);
      this.photos = grow(this.photos, n);
      this.alive = grow(this.alive, n);
      this.bumped = grow(this.bumped, n);
      this.featuredUntil = grow(this.featuredUntil, n);
      this.lat = grow(this.lat, n);
      this.lng = grow(this.lng, n);
      this.#marks = grow(this.#marks, n);
    }
    if (maxId >= this.slotOf.length) {
      const old = this.slotOf.length;
      this.slotOf = grow(this.slotOf, Math.max(maxId + 1, old * 2));
      this.slotOf.fill(-1, old);
    }
  }

  /** Adds (or replaces) an ad; returns its slot. */
  put(row: IndexRow): number {
    this.remove(row.id);
    this.#ensure(this.size + 1, row.id);
    const s = this.size++;
    this.id[s] = row.id;
    this.category[s] = row.category;
    this.city[s] = row.city;
    this.area[s] = row.area;
    this.price[s] = row.price;
    this.priceLyd[s] = row.currency === 1 ? row.price * USD_IN_LYD : row.price;
    this.currency[s] = row.currency;
    this.photos[s] = row.photos ? 1 : 0;
    this.bumped[s] = row.bumped;
    this.featuredUntil[s] = row.featuredUntil;
    this.lat[s] = row.lat;
    this.lng[s] = row.lng;
    this.alive[s] = 1;
    this.slotOf[row.id] = s;
    this.live++;
    return s;
  }

  /** The slot of an ad, or -1 when it is not in the index. */
  slot(id: number): number {
    return id < this.slotOf.length ? (this.slotOf[id] as number) : -1;
  }

  remove(id: number) {
    const s = this.slot(id);
    if (s < 0) return;
    this.alive[s] = 0;
    this.slotOf[id] = -1;
    this.live--;
  }

  addValue(attributeId: number, slot: number, value: number) {
    let col = this.attributes.get(attributeId);
    if (!col) {
      col = { slots: new Int32Array(64), values: new Float64Array(64), length: 0 };
      this.attributes.set(attributeId, col);
    }
    if (col.length === col.slots.length) {
      col.slots = grow(col.slots, col.length * 2);
      col.values = grow(col.values, col.length * 2);
    }
    col.slots[col.length] = slot;
    col.values[col.length] = value;
    col.length++;
  }

  get dead() {
    return this.size - this.live;
  }

  /**
   * Calls `visit` with the slot of every live ad that passes the filter, in slot order (or in the
   * order of `candidates`). The caller applies the city/area filter itself (to count the other
   * cities for the facet).
   */
  scan(f: ScanFilter, visit: (slot: number) => void): void {
    const nAttr = f.attributes.length;
    let need = 0;
    const marks = this.#marks;
    if (nAttr > 0) {
      if (this.#markBase + nAttr + 1 >= 0xffff_fff0) {
        marks.fill(0);
        this.#markBase = 0;
      }
      const base = this.#markBase;
      // A slot's mark climbs by one for each filter it passes, in filter order: a multiselect with
      // two matching options cannot count twice, and a slot missing one filter stays behind.
      for (let i = 0; i < nAttr; i++) {
        const a = f.attributes[i] as AttributeTest;
        const col = this.attributes.get(a.id);
        if (!col) continue;
        const from = base + i;
        const { slots, values, length } = col;
        const { set, lo, hi } = a;
        for (let j = 0; j < length; j++) {
          const s = slots[j] as number;
          const m = marks[s] as number;
          if (i === 0 ? m > base : m !== from) continue;
          const v = values[j] as number;
          if (set !== null ? set[v] === 1 : v >= lo && v <= hi) marks[s] = from + 1;
        }
      }
      // Marks left by earlier scans are at most `base`: the first filter starts from any of them.
      need = base + nAttr;
      this.#markBase = need + 1;
    }
    const { categories, priceMin, priceMax, photos, since, bbox } = f;
    const wantCurrency = f.currency;
    const pricey = priceMin !== null || priceMax !== null;
    const lo = priceMin ?? Number.NEGATIVE_INFINITY;
    const hi = priceMax ?? Number.POSITIVE_INFINITY;
    const [south, west, north, east] = bbox ?? [0, 0, 0, 0];
    const boxed = bbox !== null;
    // Columns in locals: the loop below runs a million times per search.
    const { category, price, currency, bumped, lat, lng, alive, slotOf } = this;
    const hasPhoto = this.photos;
    const cats = categories ?? new Uint8Array(0);
    const scoped = categories !== null;
    const candidates = f.candidates;
    const n = candidates === null ? this.size : candidates.length;
    for (let i = 0; i < n; i++) {
      let s = i;
      if (candidates !== null) {
        const id = candidates[i] as number;
        s = id < slotOf.length ? (slotOf[id] as number) : -1;
        if (s < 0) continue;
      } else if (alive[s] === 0) continue;
      if (scoped && cats[category[s] as number] !== 1) continue;
      if (pricey) {
        const p = price[s] as number;
        if (!(p >= lo && p <= hi) || currency[s] !== wantCurrency) continue;
      }
      if (photos && hasPhoto[s] === 0) continue;
      if (since > 0 && (bumped[s] as number) < since) continue;
      if (nAttr > 0 && marks[s] !== need) continue;
      if (boxed) {
        const la = lat[s] as number;
        const ln = lng[s] as number;
        if (la < south || la > north || ln < west || ln > east) continue;
      }
      visit(s);
    }
  }
}

export interface IndexRow {
  id: number;
  category: number;
  city: number;
  area: number;
  price: number;
  currency: number;
  photos: boolean;
  bumped: number;
  featuredUntil: number;
  lat: number;
  lng: number;
}

const ms = (v: unknown) =>
  v === null || v === undefined ? 0 : v instanceof Date ? v.getTime() : Date.parse(String(v));

/** Reads these ads (published or not: the caller drops the others) into index rows. */
async function readAds(db: DB, catalogue: CatalogueSnapshot, ids: number[]) {
  const rows = await db
    .selectFrom('ads')
    .select([
      'id',
      'status',
      'category_id',
      'city_id',
      'area_id',
      'price',
      'currency',
      'lat',
      'lng',
      'bumped_at',
      'published_at',
      'featured_until',
      sql<number>`exists (select 1 from ad_images i where i.ad_id = ads.id)`.as('has_photos'),
    ])
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => {
    const position = positionIn(catalogue, r.id, r.city_id, r.area_id, r);
    const row: IndexRow = {
      id: r.id,
      category: r.category_id,
      city: r.city_id,
      area: r.area_id ?? 0,
      price: r.price === null ? Number.NaN : toNumber(r.price),
      currency: r.currency === 'USD' ? 1 : 0,
      photos: Number(r.has_photos) === 1 || (r.has_photos as unknown) === true,
      bumped: ms(r.bumped_at ?? r.published_at),
      featuredUntil: ms(r.featured_until),
      lat: position.lat,
      lng: position.lng,
    };
    return { row, published: r.status === 'published' };
  });
}

/** `mapPosition` with the ad's city and area looked up in the catalogue. */
function positionIn(
  catalogue: CatalogueSnapshot,
  adId: number,
  cityId: number,
  areaId: number | null,
  pin: { lat: number | null; lng: number | null },
) {
  const area = areaId === null ? undefined : catalogue.areaById.get(areaId);
  return mapPosition(adId, pin, area ?? null, catalogue.cityById.get(cityId) ?? { lat: 0, lng: 0 });
}

/**
 * Where the map draws an ad: the approximate location of its page (a pin moved by a fixed offset),
 * or, without a pin, a point spread over its area or city by a fixed offset per ad — so a
 * city's ads are not all stacked on its centre, and repeated visits show the same place.
 */
export function mapPosition(
  adId: number,
  pin: { lat: number | null; lng: number | null },
  area: { lat: number; lng: number } | null,
  city: { lat: number; lng: number },
): { lat: number; lng: number } {
  const at = approximateLocation(
    adId,
    { lat: pin.lat === null ? null : Number(pin.lat), lng: pin.lng === null ? null : Number(pin.lng) },
    area,
    city,
  );
  return pin.lat !== null && pin.lng !== null ? at : jitter(at, adId, at.radius);
}

async function readValues(db: DB, index: AdIndex, catalogue: CatalogueSnapshot, ids: number[]) {
  const filterable = filterableIds(catalogue);
  if (filterable.length === 0 || ids.length === 0) return;
  const rows = await db
    .selectFrom('ad_attribute_values')
    .select(['ad_id', 'attribute_id', 'value_number', 'value_bool', 'value_option'])
    .where('attribute_id', 'in', filterable)
    .where('ad_id', 'in', ids)
    .execute();
  addValues(index, catalogue, rows);
}

const filterableIds = (catalogue: CatalogueSnapshot) =>
  [...catalogue.attributeById.values()].filter(isFilterable).map((a) => a.id);

function addValues(
  index: AdIndex,
  catalogue: CatalogueSnapshot,
  rows: {
    ad_id: number;
    attribute_id: number;
    value_number: unknown;
    value_bool: unknown;
    value_option: string | null;
  }[],
) {
  const values = new Map<SnapAttribute, (raw: unknown) => number | null>();
  for (const v of rows) {
    const s = index.slot(v.ad_id);
    if (s < 0) continue;
    const attr = catalogue.attributeById.get(v.attribute_id);
    if (!attr) continue;
    let toStored = values.get(attr);
    if (!toStored) {
      toStored = indexValue(attr);
      values.set(attr, toStored);
    }
    const value = toStored(v[valueColumn(attr)]);
    if (value !== null) index.addValue(attr.id, s, value);
  }
}

/** The value column an attribute's type fills. */
function valueColumn(attr: SnapAttribute): 'value_option' | 'value_bool' | 'value_number' {
  if (attr.type === 'select' || attr.type === 'multiselect') return 'value_option';
  return attr.type === 'boolean' ? 'value_bool' : 'value_number';
}

/**
 * How the index stores an attribute's value as read from the database (typed, or as the text of
 * an aggregated list): an option by its index in the attribute's options, a boolean as 1 or 0, a
 * number as itself; null for no value or an option the catalogue no longer has.
 */
function indexValue(attr: SnapAttribute): (raw: unknown) => number | null {
  const column = valueColumn(attr);
  if (column === 'value_option') {
    const options = new Map(attr.options.map((o, i) => [o.value, i]));
    return (raw) => (raw === null || raw === undefined ? null : (options.get(String(raw)) ?? null));
  }
  if (column === 'value_bool') {
    return (raw) =>
      raw === null || raw === undefined || raw === ''
        ? null
        : raw === true || raw === 't' || raw === 'true' || Number(raw) === 1
          ? 1
          : 0;
  }
  return (raw) => (raw === null || raw === undefined || raw === '' ? null : Number(raw));
}

/** Ads read per query while building (one aggregated row each). */
const BUILD_BATCH = 100_000;

/**
 * The index of every published ad: ads in id batches and each filterable attribute's values in one
 * walk of its value index, every column aggregated into one string per query (./bulk-read.ts).
 */
export async function buildAdIndex(db: DB, dialect: DialectName, catalogue: CatalogueSnapshot): Promise<AdIndex> {
  const index = new AdIndex();
  const bounds = await db
    .selectFrom('ads')
    .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')])
    .executeTakeFirstOrThrow();
  const agg = (expr: RawBuilder<unknown>) => listAgg(dialect, expr);
  const col = (name: string) => sql.ref(name);
  for (let from = toNumber(bounds.lo); bounds.hi !== null && from <= toNumber(bounds.hi); from += BUILD_BATCH) {
    const r = await db
      .selectFrom('ads')
      .select([
        agg(col('id')).as('id'),
        agg(col('category_id')).as('category'),
        agg(col('city_id')).as('city'),
        agg(col('area_id')).as('area'),
        agg(col('price')).as('price'),
        agg(sql`case when currency = 'USD' then 1 else 0 end`).as('currency'),
        agg(col('lat')).as('lat'),
        agg(col('lng')).as('lng'),
        agg(epochMs(dialect, sql`coalesce(bumped_at, published_at)`)).as('bumped'),
        agg(epochMs(dialect, col('featured_until'))).as('featured'),
      ])
      .where('id', '>=', from)
      .where('id', '<', from + BUILD_BATCH)
      .where('status', '=', 'published')
      .executeTakeFirst();
    if (!r?.id) continue;
    // Which of them have photos: one walk of the photos' (ad, position) index for the whole batch.
    const withPhotos = await db
      .selectFrom('ad_images')
      .select(agg(col('ad_id')).as('ids'))
      .where('ad_id', '>=', from)
      .where('ad_id', '<', from + BUILD_BATCH)
      .executeTakeFirst();
    const photoIds = numbersOf(withPhotos?.ids);
    const [ids, category, city, area, price, currency, lat, lng, bumped, featured] = [
      r.id,
      r.category,
      r.city,
      r.area,
      r.price,
      r.currency,
      r.lat,
      r.lng,
      r.bumped,
      r.featured,
    ].map(numbersOf) as Float64Array[];
    for (let i = 0; i < (ids as Float64Array).length; i++) {
      const id = ids?.[i] as number;
      const areaId = area?.[i] as number;
      const la = lat?.[i] as number;
      const ln = lng?.[i] as number;
      const at = positionIn(catalogue, id, city?.[i] as number, Number.isNaN(areaId) ? null : areaId, {
        lat: Number.isNaN(la) ? null : la,
        lng: Number.isNaN(ln) ? null : ln,
      });
      index.put({
        id,
        category: category?.[i] as number,
        city: city?.[i] as number,
        area: Number.isNaN(areaId) ? 0 : areaId,
        price: price?.[i] as number,
        currency: currency?.[i] as number,
        photos: false,
        bumped: Number.isNaN(bumped?.[i] as number) ? 0 : (bumped?.[i] as number),
        featuredUntil: Number.isNaN(featured?.[i] as number) ? 0 : (featured?.[i] as number),
        lat: at.lat,
        lng: at.lng,
      });
    }
    for (const id of photoIds) {
      const s = index.slot(id);
      if (s >= 0) index.photos[s] = 1;
    }
  }
  for (const attr of catalogue.attributeById.values()) {
    if (!isFilterable(attr)) continue;
    const column = valueColumn(attr);
    // The (attribute, value, ad) indexes cover options and numbers: one index walk per attribute.
    const r = await db
      .selectFrom('ad_attribute_values')
      .select([agg(col('ad_id')).as('ids'), agg(sql`${sql.ref(column)}`).as('values')])
      .where('attribute_id', '=', attr.id)
      .where(column, 'is not', null)
      .executeTakeFirst();
    const adIds = numbersOf(r?.ids);
    const raw = stringsOf(r?.values);
    const toStored = indexValue(attr);
    for (let i = 0; i < adIds.length; i++) {
      const s = index.slot(adIds[i] as number);
      if (s < 0) continue;
      const value = toStored(raw[i]);
      if (value !== null) index.addValue(attr.id, s, value);
    }
  }
  return index;
}

/** Re-reads these ads: changed ones get a new slot, unpublished ones leave. */
export async function refreshAds(db: DB, index: AdIndex, catalogue: CatalogueSnapshot, ids: number[]) {
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const rows = await readAds(db, catalogue, batch);
    const seen = new Set<number>();
    for (const { row, published } of rows) {
      seen.add(row.id);
      if (published) index.put(row);
      else index.remove(row.id);
    }
    for (const id of batch) if (!seen.has(id)) index.remove(id);
    await readValues(db, index, catalogue, batch);
  }
}

/** Ids of the ads changed at or after `since`. */
export async function changedSince(db: DB, dialect: DialectName, since: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('ads')
    .select('id')
    .where('updated_at', '>=', timestampValue(dialect, since) as never)
    .execute();
  return rows.map((r) => r.id);
}

export async function newestChange(db: DB): Promise<number> {
  const row = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.max('updated_at').as('m'))
    .executeTakeFirst();
  return ms(row?.m ?? null);
}
