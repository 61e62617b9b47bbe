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
import { toBool, toNumber } from '../../db/values.ts';
import { bannedOwner, publicOwner } from '../ads/visibility.ts';
import { approximateLocation, jitter } from '../geo.ts';
import type { CatalogueSnapshot, SnapAttribute } from './catalogue.ts';

export const REREAD_WINDOW_MS = 10_000;
export const REBUILD_EVERY_MS = 30 * 60_000;
const FILTER_TYPES = new Set(['select', 'multiselect', 'number', 'year', 'boolean']);

/** Whether search filters on the attribute (and the index keeps its values). */
export const isFilterable = (a: Pick<SnapAttribute, 'filterable' | 'type'>) => a.filterable && FILTER_TYPES.has(a.type);

/**
 * The values of one filterable attribute: entries (slot, value), options by their index; a slot with
 * several values (a multiselect) has its entries chained by `next`. Entries [0, sorted) are the
 * sealed slots' in slot order, so a scan reads them in sequence; the rest were added since.
 */
interface AttributeColumn {
  slots: Int32Array;
  values: Float64Array;
  /** The next entry of the same slot, or -1. */
  next: Int32Array;
  length: number;
  sorted: number;
  /** The sealed slots with values: lo to hi. */
  lo: number;
  hi: number;
  /**
   * When the slots with values are not too spread out: a column with one value per slot keeps each
   * sealed slot's value at dense[s - lo] (DENSE_NONE or NaN: none) — a scan reads two or four bytes
   * a slot; one with several (a multiselect) keeps slot s's first entry at head[s - lo] (-1: none).
   */
  dense: Uint16Array | Float32Array | Float64Array | null;
  head: Int32Array | null;
  /** Slot s's first entry at tailHead[s - sealed] for slots added since sealing (made when first needed). */
  tailHead: Int32Array | null;
}

/**
 * A sealed column keeps an array over the slots it spans (dense or head) when the span is at most
 * SPAN_SPREAD times its entries plus SPAN_SLACK; `seal` takes another slack (the tests: none).
 */
const SPAN_SPREAD = 4;
const SPAN_SLACK = 4096;

const noEntries = () => ({
  slots: new Int32Array(64),
  values: new Float64Array(64),
  next: new Int32Array(64),
  length: 0,
  sorted: 0,
});

const newColumn = (): AttributeColumn => ({
  ...noEntries(),
  lo: 0,
  hi: -1,
  dense: null,
  head: null,
  tailHead: null,
});

/** No value, in a column of whole numbers kept as Uint16Array. */
const DENSE_NONE = 0xffff;

/** What a dense column holds for "no value": DENSE_NONE in 16-bit columns, NaN in float ones (where 65 535 is a value). */
const noneOf = (dense: NonNullable<AttributeColumn['dense']>) =>
  dense instanceof Uint16Array ? DENSE_NONE : Number.NaN;

/** Turns a dense column's sealed values back into entries, before the tail's (for sealing again). */
function expandDense(col: AttributeColumn) {
  const { dense, lo } = col as AttributeColumn & { dense: NonNullable<AttributeColumn['dense']> };
  const none = noneOf(dense);
  const slots: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < dense.length; i++) {
    const v = dense[i] as number;
    if (v === none || Number.isNaN(v)) continue;
    slots.push(lo + i);
    values.push(v);
  }
  for (let j = col.sorted; j < col.length; j++) {
    slots.push(col.slots[j] as number);
    values.push(col.values[j] as number);
  }
  Object.assign(col, {
    slots: Int32Array.from(slots),
    values: Float64Array.from(values),
    next: new Int32Array(slots.length).fill(-1),
    length: slots.length,
    sorted: 0,
    dense: null,
  });
}

/** The values of a column's span [lo, lo + span) by slot, in the narrowest array that holds them exactly. */
function denseColumn(slots: Int32Array, values: Float64Array, kept: number, lo: number, span: number) {
  let small = true;
  let single = true;
  for (let i = 0; i < kept; i++) {
    const v = values[i] as number;
    if (!(Number.isInteger(v) && v >= 0 && v < DENSE_NONE)) small = false;
    if (Math.fround(v) !== v) single = false;
  }
  const dense = small
    ? new Uint16Array(span).fill(DENSE_NONE)
    : single
      ? new Float32Array(span).fill(Number.NaN)
      : new Float64Array(span).fill(Number.NaN);
  for (let i = 0; i < kept; i++) dense[(slots[i] as number) - lo] = values[i] as number;
  return dense;
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

/** The per-ad byte columns a filter can ask to be set, and the time columns it can bound from below. */
export type FlagColumn = 'photos' | 'company';
export type TimeColumn = 'bumped' | 'featuredUntil';

/**
 * A test on a per-ad column: the byte is 1 (`flag`; 0 with `clear`), or the time (ms since the
 * epoch) is at or after `min` (`at-least`). The URL's filters declare theirs in app/lib/search-filters.ts.
 */
export type ColumnTest =
  | { kind: 'flag'; column: FlagColumn; clear?: boolean }
  | { kind: 'at-least'; column: TimeColumn; min: number };

export interface ScanFilter {
  /** By category id: 1 where the category is in the query's scope; null for every category. */
  categories: Uint8Array | null;
  priceMin: number | null;
  priceMax: number | null;
  /** 0 LYD, 1 USD: the currency price bounds apply in. */
  currency: number;
  /** Every one must hold. */
  columns: ColumnTest[];
  /** Every one must hold: the value is one of `set` (option indexes), or within [lo, hi]. */
  attributes: AttributeTest[];
  /** Ad ids to consider (a text match); null for every ad. */
  candidates: readonly number[] | null;
  /** [south, west, north, east] of the map's viewport, or null. */
  bbox: [number, number, number, number] | null;
}

/**
 * A run of slots for a scan or a walk: positions [from, to) of `order` (a slot order built when the
 * index was sealed), or the slots from…to themselves when `order` is null; `reverse` walks it from
 * the end.
 */
export interface SlotRun {
  order: Int32Array | null;
  from: number;
  to: number;
  reverse?: boolean;
  /** Every slot of the run is of the categories it was made for (no need to test them again). */
  inScope?: boolean;
}

/** The sorts the index keeps a slot order for. */
export type OrderedSort = 'newest' | 'price-asc' | 'price-desc';

/** Live ads counted by two keys (category × city, category × area), grown as new ids appear. */
class CountTable {
  rows = 0;
  cols = 0;
  data = new Int32Array(0);

  add(row: number, col: number, by: number) {
    if (row >= this.rows || col >= this.cols) {
      const rows = Math.max(this.rows, row + 1);
      const cols = Math.max(this.cols, col + 1);
      const data = new Int32Array(rows * cols);
      for (let r = 0; r < this.rows; r++) data.set(this.data.subarray(r * this.cols, (r + 1) * this.cols), r * cols);
      this.rows = rows;
      this.cols = cols;
      this.data = data;
    }
    this.data[row * this.cols + col] += by;
  }

  at(row: number, col: number): number {
    return row < this.rows && col < this.cols ? (this.data[row * this.cols + col] as number) : 0;
  }

  /** The row's counts, by column (shared: do not keep). */
  row(row: number): Int32Array {
    return row < this.rows ? this.data.subarray(row * this.cols, (row + 1) * this.cols) : new Int32Array(0);
  }
}

/** Where each key's group starts among slots [0, n) grouped by key: start[k] to start[k + 1] for key k. */
function groupStarts(keys: Uint16Array, n: number): Int32Array<ArrayBuffer> {
  let span = 1;
  for (let s = 0; s < n; s++) if ((keys[s] as number) >= span) span = (keys[s] as number) + 1;
  const start = new Int32Array(span + 1);
  for (let s = 0; s < n; s++) start[(keys[s] as number) + 1]++;
  for (let k = 0; k < span; k++) start[k + 1] += start[k] as number;
  return start;
}

/** Slots of [0, n) grouped by a key: `slots` from `start[k]` to `start[k + 1]` have key k, in slot order. */
function groupBy(keys: Uint16Array, n: number) {
  const start = groupStarts(keys, n);
  const span = start.length - 1;
  const next = start.slice(0, span);
  const slots = new Int32Array(start[span] as number);
  for (let s = 0; s < n; s++) slots[next[keys[s] as number]++] = s;
  return { slots, start };
}

/** A slot read through an order costs about this many read in sequence (a cache miss per column). */
export const INDIRECT_COST = 4;

/** What visiting these runs costs, in slots read in sequence. */
export const scanCost = (runs: SlotRun[]) =>
  runs.reduce((n, r) => n + (r.to - r.from) * (r.order === null ? 1 : INDIRECT_COST), 0);

/** Whether a filter keeps nothing out but by category (and the caller's city and area): counts come from the tables. */
export const isPlain = (f: ScanFilter) =>
  f.candidates === null &&
  f.bbox === null &&
  f.priceMin === null &&
  f.priceMax === null &&
  f.columns.length === 0 &&
  f.attributes.length === 0;

type SlotArray = Int32Array | Uint16Array | Uint8Array | Float64Array | Float32Array;

const grow = <T extends SlotArray | Uint32Array>(a: T, size: number): T => {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
};

/** Every per-slot column of the index: grown and renumbered together (a new one is listed here). */
const SLOT_COLUMNS = [
  'id',
  'category',
  'city',
  'area',
  'price',
  'priceLyd',
  'currency',
  'photos',
  'company',
  'alive',
  'bumped',
  'featuredUntil',
  'lat',
  'lng',
] as const satisfies readonly (keyof AdIndex)[];
type SlotColumn = (typeof SLOT_COLUMNS)[number];

function replaceColumn<K extends SlotColumn>(index: AdIndex, name: K, column: AdIndex[K]) {
  index[name] = column;
}

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
  /** 1 when the ad's owner belongs to a company (`ads.company_id`): the seller filter. */
  company = new Uint8Array(1024);
  alive = new Uint8Array(1024);
  bumped = new Float64Array(1024);
  featuredUntil = new Float64Array(1024);
  lat = new Float32Array(1024);
  lng = new Float32Array(1024);
  /** Slot of each ad id (-1: not in the index). */
  slotOf = new Int32Array(1024).fill(-1);
  attributes = new Map<number, AttributeColumn>();
  /** Live ads by category and city, by category and area (0: none): a plain query's counts without a scan. */
  byCategoryCity = new CountTable();
  byCategoryArea = new CountTable();
  /**
   * Slots below `sealed` also sit in the orders below, built by `seal()` once the index is read;
   * slots added since (ads changed later) form the tail, which every scan and walk visits whole.
   */
  sealed = 0;
  /** Sealed slots are in category order: those of category c are categoryStart[c] to categoryStart[c + 1]. */
  categoryStart = new Int32Array(1);
  /** Sealed slots grouped by city. */
  cityGroups = { slots: new Int32Array(0), start: new Int32Array(1) };
  /** Sealed slots newest first (last bump, then higher ad id). */
  byNewest = new Int32Array(0);
  /** Sealed slots with a price, cheapest first (in LYD; equal prices higher ad id first), then those without (higher id first). */
  byPrice = new Int32Array(0);
  priced = 0;
  /** Sealed slots featured when sealed (ads featured later are in the tail). */
  featured = new Int32Array(0);
  /** When the index was sealed (ms since the epoch). */
  sealedAt = 0;
  /** The answer of `matching`, reused. */
  #found = new Int32Array(0);

  #ensure(slots: number, maxId: number) {
    if (slots > this.id.length) {
      const n = Math.max(slots, this.id.length * 2);
      this.#mapColumns((a) => grow(a, n));
    }
    if (maxId >= this.slotOf.length) {
      const old = this.slotOf.length;
      this.slotOf = grow(this.slotOf, Math.max(maxId + 1, old * 2));
      this.slotOf.fill(-1, old);
    }
  }

  /** Replaces every per-slot column by what `f` makes of it. */
  #mapColumns(f: <T extends SlotArray>(a: T) => T) {
    for (const name of SLOT_COLUMNS) replaceColumn(this, name, f(this[name]));
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
    this.company[s] = row.company ? 1 : 0;
    this.bumped[s] = row.bumped;
    this.featuredUntil[s] = row.featuredUntil;
    this.lat[s] = row.lat;
    this.lng[s] = row.lng;
    this.alive[s] = 1;
    this.slotOf[row.id] = s;
    this.live++;
    this.#count(s, 1);
    return s;
  }

  #count(s: number, by: number) {
    const category = this.category[s] as number;
    this.byCategoryCity.add(category, this.city[s] as number, by);
    this.byCategoryArea.add(category, this.area[s] as number, by);
  }

  /**
   * Lays the live slots out for scans and builds the slot orders (after a build). Slots are renumbered
   * by category, newest first within one: a category's ads are then one run of consecutive slots
   * (a scan of a category reads its columns in sequence), and a scan meets each category's newest
   * ads first (most offers to a page of newest ads are refused at once).
   */
  seal(now = Date.now(), spanSlack = SPAN_SLACK) {
    const { category, bumped, id, alive } = this;
    const live: number[] = [];
    for (let s = 0; s < this.size; s++) if (alive[s] === 1) live.push(s);
    live.sort(
      (a, b) =>
        (category[a] as number) - (category[b] as number) ||
        (bumped[b] as number) - (bumped[a] as number) ||
        (id[b] as number) - (id[a] as number),
    );
    this.#renumber(Int32Array.from(live), spanSlack);
    const n = this.size;
    this.sealed = n;
    this.sealedAt = now;
    // Slots are in category order now: each category's group is its run of slots.
    this.categoryStart = groupStarts(this.category, n);
    this.cityGroups = groupBy(this.city, n);
    const { priceLyd, featuredUntil } = this;
    const all: number[] = [];
    const withPrice: number[] = [];
    const withoutPrice: number[] = [];
    const featured: number[] = [];
    for (let s = 0; s < n; s++) {
      all.push(s);
      (Number.isNaN(priceLyd[s] as number) ? withoutPrice : withPrice).push(s);
      if ((featuredUntil[s] as number) > now) featured.push(s);
    }
    // Equal keys: the higher ad id first, as the search's ranking has it.
    const ids = this.id;
    const newer = (a: number, b: number) =>
      (this.bumped[b] as number) - (this.bumped[a] as number) || (ids[b] as number) - (ids[a] as number);
    all.sort(newer);
    withPrice.sort(
      (a, b) => (priceLyd[a] as number) - (priceLyd[b] as number) || (ids[b] as number) - (ids[a] as number),
    );
    withoutPrice.sort((a, b) => (ids[b] as number) - (ids[a] as number));
    this.byNewest = Int32Array.from(all);
    this.byPrice = Int32Array.from([...withPrice, ...withoutPrice]);
    this.priced = withPrice.length;
    this.featured = Int32Array.from(featured);
  }

  /** Moves slot `order[i]` to slot i for every i, dropping the others (dead ones). */
  #renumber(order: Int32Array, spanSlack: number) {
    const n = order.length;
    const newSlot = new Int32Array(this.size).fill(-1);
    for (let i = 0; i < n; i++) newSlot[order[i] as number] = i;
    const take = <T extends SlotArray>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length);
      for (let i = 0; i < n; i++) b[i] = a[order[i] as number] as number;
      return b;
    };
    this.#mapColumns(take);
    this.slotOf.fill(-1);
    for (let i = 0; i < n; i++) this.slotOf[this.id[i] as number] = i;
    // Each attribute's values in slot order too, then by slot over the span they cover where that
    // is not too spread out (see AttributeColumn). An entry is sorted by slot × 2^23 + its place:
    // fewer than 8 million values per attribute.
    for (const col of this.attributes.values()) {
      if (col.dense !== null) expandDense(col);
      const keys = new Float64Array(col.length);
      let kept = 0;
      for (let j = 0; j < col.length; j++) {
        const s = newSlot[col.slots[j] as number] as number;
        if (s >= 0) keys[kept++] = s * 2 ** 23 + j;
      }
      const sorted = keys.subarray(0, kept).sort();
      const size = Math.max(64, kept);
      const slots = new Int32Array(size);
      const values = new Float64Array(size);
      const next = new Int32Array(size);
      for (let i = 0; i < kept; i++) {
        const key = sorted[i] as number;
        const j = key % 2 ** 23;
        slots[i] = (key - j) / 2 ** 23;
        values[i] = col.values[j] as number;
      }
      for (let i = 0; i < kept; i++) next[i] = i + 1 < kept && slots[i + 1] === slots[i] ? i + 1 : -1;
      const lo = kept > 0 ? (slots[0] as number) : 0;
      const hi = kept > 0 ? (slots[kept - 1] as number) : -1;
      const span = Math.max(0, hi - lo + 1);
      let head: Int32Array | null = null;
      let dense: AttributeColumn['dense'] = null;
      if (span <= SPAN_SPREAD * kept + spanSlack) {
        if (next.subarray(0, kept).every((j) => j < 0)) dense = denseColumn(slots, values, kept, lo, span);
        else {
          head = new Int32Array(span).fill(-1);
          for (let i = kept - 1; i >= 0; i--) head[(slots[i] as number) - lo] = i;
        }
      }
      // A dense column holds the sealed values itself: their entries would only take memory.
      const entries = dense === null ? { slots, values, next, length: kept, sorted: kept } : noEntries();
      Object.assign(col, entries, { lo, hi, dense, head, tailHead: null });
    }
    this.size = n;
    this.live = n;
  }

  /**
   * The sealed slots in the order of a sort, best first: newest, or by price with the ads without
   * one last. Equal keys come higher ad id first, as the search ranks them — except in a reversed
   * run (dearest first), where they come lower id first.
   */
  orderRuns(sort: OrderedSort): SlotRun[] {
    if (sort === 'newest') return [{ order: this.byNewest, from: 0, to: this.byNewest.length }];
    const unpriced: SlotRun = { order: this.byPrice, from: this.priced, to: this.byPrice.length };
    const priced: SlotRun = { order: this.byPrice, from: 0, to: this.priced, reverse: sort === 'price-desc' };
    return [priced, unpriced];
  }

  /** Sealed slots of these categories (id → 1 in the set): runs of consecutive slots. */
  categoryRuns(categories: Uint8Array): SlotRun[] {
    const start = this.categoryStart;
    const runs: SlotRun[] = [];
    const top = Math.min(categories.length, start.length - 1);
    for (let c = 0; c < top; c++) {
      if (categories[c] !== 1 || start[c + 1] === start[c]) continue;
      const last = runs[runs.length - 1];
      if (last && last.to === start[c]) last.to = start[c + 1] as number;
      else runs.push({ order: null, from: start[c] as number, to: start[c + 1] as number, inScope: true });
    }
    return runs;
  }

  /** Sealed slots of a city. */
  cityRuns(city: number): SlotRun[] {
    const { slots, start } = this.cityGroups;
    return city + 1 < start.length
      ? [{ order: slots, from: start[city] as number, to: start[city + 1] as number }]
      : [];
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
    this.#count(s, -1);
  }

  addValue(attributeId: number, slot: number, value: number) {
    let col = this.attributes.get(attributeId);
    if (!col) {
      col = newColumn();
      this.attributes.set(attributeId, col);
    }
    if (col.length === col.slots.length) {
      col.slots = grow(col.slots, col.length * 2);
      col.values = grow(col.values, col.length * 2);
      col.next = grow(col.next, col.length * 2);
    }
    const j = col.length++;
    col.slots[j] = slot;
    col.values[j] = value;
    col.next[j] = -1;
    if (col.tailHead !== null) this.#chainTail(col, j);
  }

  /** Puts entry j (of a slot added since sealing) first in its slot's chain. */
  #chainTail(col: AttributeColumn, j: number) {
    const k = (col.slots[j] as number) - this.sealed;
    let heads = col.tailHead as Int32Array;
    if (k >= heads.length) {
      const old = heads.length;
      heads = grow(heads, Math.max(k + 1, old * 2, 64));
      heads.fill(-1, old);
      col.tailHead = heads;
    }
    col.next[j] = heads[k] as number;
    heads[k] = j;
  }

  /** The first entry of slot s in a column, or -1: the slot has no value. */
  #firstEntry(col: AttributeColumn, s: number): number {
    if (s >= this.sealed) {
      if (col.tailHead === null) {
        col.tailHead = new Int32Array(0);
        for (let j = col.sorted; j < col.length; j++) this.#chainTail(col, j);
      }
      const k = s - this.sealed;
      return k < col.tailHead.length ? (col.tailHead[k] as number) : -1;
    }
    if (s < col.lo || s > col.hi) return -1;
    if (col.head !== null) return col.head[s - col.lo] as number;
    // The first entry at or after s among the sorted ones.
    const { slots } = col;
    let lo = 0;
    let hi = col.sorted;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((slots[mid] as number) < s) lo = mid + 1;
      else hi = mid;
    }
    return lo < col.sorted && slots[lo] === s ? lo : -1;
  }

  /** Whether slot s has a value of the column that passes the test, from its entries (not for a dense column's sealed slots). */
  #passesTest(col: AttributeColumn, t: AttributeTest, s: number): boolean {
    const { values, next } = col;
    const { set, lo, hi } = t;
    for (let j = this.#firstEntry(col, s); j >= 0; j = next[j] as number) {
      const v = values[j] as number;
      if (set !== null ? set[v] === 1 : v >= lo && v <= hi) return true;
    }
    return false;
  }

  get dead() {
    return this.size - this.live;
  }

  /** Sealed slots bumped at or after `since`. */
  sinceRuns(since: number): SlotRun[] {
    const { byNewest, bumped } = this;
    let lo = 0;
    let hi = byNewest.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((bumped[byNewest[mid] as number] as number) >= since) lo = mid + 1;
      else hi = mid;
    }
    return [{ order: byNewest, from: 0, to: lo }];
  }

  /**
   * The cheapest sealed slots a scan can visit and still meet every ad that passes `f` (and, with
   * `place`, is in its city): the query's categories, its city, its time window or the featured
   * ads; null for all of them. Slots read through an order cost more than consecutive ones.
   */
  runsFor(f: ScanFilter, place: { cityId: number | null } | null): SlotRun[] | null {
    if (f.candidates !== null) return null;
    let best: SlotRun[] | null = null;
    let cost = this.sealed;
    const consider = (runs: SlotRun[]) => {
      const c = scanCost(runs);
      if (c < cost) {
        best = runs;
        cost = c;
      }
    };
    if (f.categories !== null) consider(this.categoryRuns(f.categories));
    if (place?.cityId != null) consider(this.cityRuns(place.cityId));
    for (const t of f.columns) {
      if (t.kind !== 'at-least') continue;
      if (t.column === 'bumped') consider(this.sinceRuns(t.min));
      // Every sealed slot featured until after the sealing is in `featured`.
      else if (t.column === 'featuredUntil' && t.min > this.sealedAt) {
        consider([{ order: this.featured, from: 0, to: this.featured.length }]);
      }
    }
    return best;
  }

  /**
   * The slots of every live ad that passes the filter: the candidates in their order, or the slots
   * of `runs` (sealed slots that hold every match, see `runsFor`) then the tail, or every slot.
   * The caller applies the city/area filter itself (to count the other cities for the facet). The
   * answer is a view of a buffer the next call overwrites: use it before anything else searches.
   */
  matching(f: ScanFilter, runs: SlotRun[] | null = null): Int32Array {
    // In stages, each a short loop of its own over the slots still in: first the live ones (in
    // the map's viewport, when there is one) of the candidates, the runs or every slot; then each
    // other test the filter has, in place. Small loops the JIT sees one kind of array in are several
    // times faster than one loop testing everything a filter might ask.
    const need = Math.max(this.size, f.candidates?.length ?? 0);
    if (this.#found.length < need) this.#found = new Int32Array(Math.max(need, this.id.length));
    const found = this.#found;
    const { alive, category } = this;
    const cats = f.categories ?? new Uint8Array(0);
    let scoped = f.categories !== null;
    const box = f.bbox === null ? null : Float64Array.from(f.bbox);
    const pricey = f.priceMin !== null || f.priceMax !== null;
    const lo = f.priceMin ?? Number.NEGATIVE_INFINITY;
    const hi = f.priceMax ?? Number.POSITIVE_INFINITY;
    let n = 0;
    /** found[0, priced) passed the price test as they were collected. */
    let priced = 0;
    if (f.candidates !== null) {
      n = collectIds(found, f.candidates, this.slotOf);
    } else if (box !== null) {
      // The map: the viewport first (few of every slot are in it).
      for (const r of runs ?? []) n = collectInBox(found, n, r, false, alive, this.lat, this.lng, box);
      const all = { order: null, from: runs === null ? 0 : this.sealed, to: this.size };
      n = collectInBox(found, n, all, true, alive, this.lat, this.lng, box);
    } else {
      for (const r of runs ?? []) {
        if (pricey && r.inScope && r.order === null && priced === n) {
          // A category's own slots and a price filter (the commonest filter): both tests at once.
          n = collectPriced(found, n, r.from, r.to, alive, this.price, this.currency, lo, hi, f.currency);
          priced = n;
        } else n = collectLive(found, n, r, false, alive, category, cats, scoped && !r.inScope);
      }
      // The tail newest first, like the sealed slots (ads changed last are the likeliest on a page).
      const all = { order: null, from: runs === null ? 0 : this.sealed, to: this.size };
      n = collectLive(found, n, all, true, alive, category, cats, scoped);
      scoped = false;
    }
    if (scoped) n = keepByte(found, n, category, cats);
    if (box !== null && f.candidates !== null) n = keepInBox(found, n, this.lat, this.lng, box);
    for (const t of f.columns) {
      n =
        t.kind === 'flag'
          ? keepByte(found, n, this[t.column], t.clear ? ZERO : ONE)
          : keepAtLeast(found, n, this[t.column], t.min);
    }
    if (pricey) n = keepPriced(found, priced, n, this.price, this.currency, lo, hi, f.currency);
    // Attribute tests last: a multiselect passes when any of its values does; a test of an
    // attribute no ad has a value of passes none.
    for (const t of f.attributes) {
      const col = this.attributes.get(t.id);
      n = col === undefined ? 0 : this.#keepPassing(found, n, col, t);
    }
    return found.subarray(0, n);
  }

  /** Keeps the slots of found[0, n) with a value of the column that passes the test; returns how many. */
  #keepPassing(found: Int32Array, n: number, col: AttributeColumn, t: AttributeTest): number {
    const { dense } = col;
    let k = 0;
    if (dense === null) {
      for (let i = 0; i < n; i++) {
        const s = found[i] as number;
        found[k] = s;
        k += +this.#passesTest(col, t, s);
      }
      return k;
    }
    // The usual case, inline: a sealed slot's one value read straight from the dense column.
    const { sealed } = this;
    const from = col.lo;
    const span = dense.length;
    const { set, lo, hi } = t;
    const options = set ?? new Uint8Array(0);
    const none = noneOf(dense);
    for (let i = 0; i < n; i++) {
      const s = found[i] as number;
      const at = s - from;
      let ok = 0;
      if (s >= sealed) ok = +this.#passesTest(col, t, s);
      else if (at >= 0 && at < span) {
        const v = dense[at] as number;
        // An option the catalogue has dropped since the index read it is not wanted.
        ok = set !== null ? (v < options.length ? (options[v] as number) : 0) : +(v !== none && v >= lo && v <= hi);
      }
      found[k] = s;
      k += ok;
    }
    return k;
  }
}

/** Byte 1 at index 1: the test "this flag is set". */
const ONE = Uint8Array.of(0, 1);
/** Byte 1 at index 0: the test "this flag is clear". */
const ZERO = Uint8Array.of(1, 0);

/** The live slots of these ids, in their order, into found; returns how many. */
function collectIds(found: Int32Array, ids: readonly number[], slotOf: Int32Array): number {
  // An ad's slot is live: `remove` forgets the slots of ads that leave, `put` moves them.
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const s = id < slotOf.length ? (slotOf[id] as number) : -1;
    found[n] = s;
    n += +(s >= 0);
  }
  return n;
}

/** Appends the live slots of a run (in scope, when scoped) to found[0, n); `down`: from the end. Returns the new n. */
function collectLive(
  found: Int32Array,
  n: number,
  run: SlotRun,
  down: boolean,
  alive: Uint8Array,
  category: Uint16Array,
  cats: Uint8Array,
  scoped: boolean,
): number {
  const { order, from, to } = run;
  // Without branches but loop-invariant ones: a slot is written, and counted when it is in.
  if (order !== null) {
    for (let i = from; i < to; i++) {
      const s = order[i] as number;
      found[n] = s;
      n += (alive[s] as number) & (scoped ? (cats[category[s] as number] as number) : 1);
    }
  } else if (down) {
    for (let s = to - 1; s >= from; s--) {
      found[n] = s;
      n += (alive[s] as number) & (scoped ? (cats[category[s] as number] as number) : 1);
    }
  } else {
    for (let s = from; s < to; s++) {
      found[n] = s;
      n += (alive[s] as number) & (scoped ? (cats[category[s] as number] as number) : 1);
    }
  }
  return n;
}

/** Appends the live slots from..to priced from lo to hi in the currency to found after its first n; returns the new n. */
function collectPriced(
  found: Int32Array,
  n: number,
  from: number,
  to: number,
  alive: Uint8Array,
  price: Float64Array,
  currency: Uint8Array,
  lo: number,
  hi: number,
  wanted: number,
): number {
  let end = n;
  for (let s = from; s < to; s++) {
    const p = price[s] as number;
    found[end] = s;
    end += (alive[s] as number) & +(p >= lo) & +(p <= hi) & +(currency[s] === wanted);
  }
  return end;
}

/** Appends the live slots of a run inside box [south, west, north, east] to found[0, n); returns the new n. */
function collectInBox(
  found: Int32Array,
  n: number,
  run: SlotRun,
  down: boolean,
  alive: Uint8Array,
  lat: Float32Array,
  lng: Float32Array,
  box: Float64Array,
): number {
  const { order, from, to } = run;
  const [south, west, north, east] = box as unknown as [number, number, number, number];
  const count = to - from;
  for (let j = 0; j < count; j++) {
    const i = down ? to - 1 - j : from + j;
    const s = order === null ? i : (order[i] as number);
    const la = lat[s] as number;
    const ln = lng[s] as number;
    if (la < south || la > north || ln < west || ln > east) continue;
    if (alive[s] === 1) found[n++] = s;
  }
  return n;
}

/** Keeps the slots of found[0, n) whose byte is marked in `wanted` (wanted[bytes[s]] === 1); returns how many. */
function keepByte(found: Int32Array, n: number, bytes: Uint8Array | Uint16Array, wanted: Uint8Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = found[i] as number;
    found[k] = s;
    // & 1: a key past the end of `wanted` (a category newer than the snapshot) reads undefined, not in.
    k += (wanted[bytes[s] as number] as number) & 1;
  }
  return k;
}

/** Keeps the slots of found[0, n) whose value is at least `min`; returns how many. */
function keepAtLeast(found: Int32Array, n: number, values: Float64Array, min: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = found[i] as number;
    found[k] = s;
    k += +((values[s] as number) >= min);
  }
  return k;
}

/** Keeps the slots of found[start, n) priced from lo to hi in the currency (and those before start); returns how many. */
function keepPriced(
  found: Int32Array,
  start: number,
  n: number,
  price: Float64Array,
  currency: Uint8Array,
  lo: number,
  hi: number,
  wanted: number,
): number {
  let k = start;
  for (let i = start; i < n; i++) {
    const s = found[i] as number;
    const p = price[s] as number;
    // Without branches: whether a price is in range is a coin toss the processor cannot predict.
    found[k] = s;
    k += +(p >= lo) & +(p <= hi) & +(currency[s] === wanted);
  }
  return k;
}

/** Keeps the slots of found[0, n) inside box [south, west, north, east]; returns how many. */
function keepInBox(found: Int32Array, n: number, lat: Float32Array, lng: Float32Array, box: Float64Array): number {
  const [south, west, north, east] = box as unknown as [number, number, number, number];
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = found[i] as number;
    const la = lat[s] as number;
    const ln = lng[s] as number;
    if (la >= south && la <= north && ln >= west && ln <= east) found[k++] = s;
  }
  return k;
}

export interface IndexRow {
  id: number;
  category: number;
  city: number;
  area: number;
  price: number;
  currency: number;
  photos: boolean;
  /** The owner belongs to a company. */
  company: boolean;
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
      'company_id',
      // 1 or 0 on SQLite, a boolean on PostgreSQL.
      sql<number | boolean>`exists (select 1 from ad_images i where i.ad_id = ads.id)`.as('has_photos'),
      // A banned member's ads leave the index while the ban lasts (../ads/visibility.ts).
      sql<number | boolean>`${bannedOwner('ads.user_id')}`.as('owner_banned'),
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
      photos: toBool(r.has_photos),
      company: r.company_id !== null,
      bumped: ms(r.bumped_at ?? r.published_at),
      featuredUntil: ms(r.featured_until),
      lat: position.lat,
      lng: position.lng,
    };
    // A banned member's ad, or an ad of a category switched off (or under one), is listed nowhere,
    // as the sitemap leaves it out.
    return {
      row,
      published: r.status === 'published' && !toBool(r.owner_banned) && catalogue.categoryById.has(r.category_id),
    };
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
        agg(sql`case when company_id is null then 0 else 1 end`).as('company'),
      ])
      .where('id', '>=', from)
      .where('id', '<', from + BUILD_BATCH)
      .where('status', '=', 'published')
      .where(publicOwner('ads.user_id'))
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
    const [ids, category, city, area, price, currency, lat, lng, bumped, featured, company] = [
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
      r.company,
    ].map(numbersOf) as Float64Array[];
    for (let i = 0; i < (ids as Float64Array).length; i++) {
      const id = ids?.[i] as number;
      // Ads of a category switched off (or under one) are listed nowhere (see readAds).
      if (!catalogue.categoryById.has(category?.[i] as number)) continue;
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
        company: company?.[i] === 1,
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
  index.seal();
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

/** The ads changed at or after `since`, each with its `updated_at` in ms. */
export async function changesSince(db: DB, dialect: DialectName, since: Date): Promise<{ id: number; at: number }[]> {
  const rows = await db
    .selectFrom('ads')
    .select(['id', 'updated_at'])
    .where('updated_at', '>=', timestampValue(dialect, since) as never)
    .execute();
  return rows.map((r) => ({ id: r.id, at: ms(r.updated_at) }));
}

export async function newestChange(db: DB): Promise<number> {
  const row = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.max('updated_at').as('m'))
    .executeTakeFirst();
  return ms(row?.m ?? null);
}
