// The map of search results (`/posts/map`, `GET /api/posts/map`; docs/product/search.md): the ads of a query inside the
// map's viewport, clustered on the server so a million ads cost one pass over the index and a few
// hundred items on the wire, never every ad.
//
// Clusters are the cells of a grid laid over the world in Web-Mercator pixels at the map's zoom
// (CELL_PX pixels a side, so they look the same size at every zoom and stay put while the map
// pans). Each cell reports its count, the mean of its ads' positions (where the map draws it) and
// their bounds (where a click zooms to). A cell holding one ad is that ad's marker; close up
// (MARKER_ZOOM and beyond) a cell of a few ads opens into their markers. Positions are the index's
// approximate ones (server/domain/search/ad-index.ts `mapPosition`): a pin moved by a fixed offset,
// or a point spread over the ad's area or city, never the owner's pin.

import { z } from 'zod';
import type { DatabaseHandle } from '../../db/index.ts';
import { type AdIndex, isPlain, type ScanFilter } from './ad-index.ts';
import { type ResolvedQuery, scanFilter, searchEngine } from './service.ts';

/** [south, west, north, east] in degrees. */
export type Bbox = [number, number, number, number];

export interface MapViewport {
  bbox: Bbox;
  /** Whole zoom level, 0–MAX_MAP_ZOOM. */
  zoom: number;
}

export interface MapCluster {
  lat: number;
  lng: number;
  count: number;
  /** [south, west, north, east] of its ads. */
  bounds: Bbox;
  /** Close up (MARKER_ZOOM and beyond): up to EXPAND_UP_TO of its ads, for a list where zooming cannot part them. */
  ids?: number[];
}

export interface MapMarker {
  id: number;
  lat: number;
  lng: number;
}

export interface MapResult {
  clusters: MapCluster[];
  markers: MapMarker[];
  /** Matching ads in the viewport (a lower bound when `exact` is false: a very common word). */
  total: number;
  exact: boolean;
}

/** Libya, roughly: what a map without a (valid) viewport shows. */
export const LIBYA_BBOX: Bbox = [19.5, 9.3, 33.2, 25.2];
export const MAX_MAP_ZOOM = 19;
/** Clusters and markers in one answer, at most. */
export const MAX_MAP_ITEMS = 400;
/** From this zoom on, a cell of at most EXPAND_UP_TO ads comes as their markers. */
export const MARKER_ZOOM = 16;
export const EXPAND_UP_TO = 10;
/** Cells of one grid, at most: a viewport far larger than a screen at its zoom gets larger cells. */
const MAX_CELLS = 4096;
/** Web-Mercator's latitude limit. */
const MAX_LAT = 85.05112878;
const TILE_PX = 256;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Longitude as a fraction of the world's width (0 at 180° W). */
const mercatorX = (lng: number) => (lng + 180) / 360;
/** Latitude as a fraction of the world's height (0 at the top). */
const mercatorY = (lat: number) => {
  const sin = Math.sin((clamp(lat, -MAX_LAT, MAX_LAT) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
};

/** Four finite numbers, clamped to the world, south ≤ north; refused when it crosses the antimeridian. */
const bboxParameter = z
  .string()
  .transform((value, ctx) => {
    const parts = value.split(',');
    if (parts.length !== 4 || !parts.every((p) => p.trim() !== '' && Number.isFinite(Number(p)))) {
      ctx.addIssue({ code: 'custom', message: 'four numbers' });
      return z.NEVER;
    }
    let [s, w, n, e] = parts.map(Number) as Bbox;
    s = clamp(s, -MAX_LAT, MAX_LAT);
    n = clamp(n, -MAX_LAT, MAX_LAT);
    w = clamp(w, -180, 180);
    e = clamp(e, -180, 180);
    if (s > n) [s, n] = [n, s];
    if (w > e) {
      ctx.addIssue({ code: 'custom', message: 'crosses the antimeridian' });
      return z.NEVER;
    }
    return [s, w, n, e] as Bbox;
  })
  .meta({
    description: `south,west,north,east in degrees; missing or invalid: Libya (${LIBYA_BBOX.join(',')})`,
    examples: ['30.5,11,33.5,16'],
  });

/** The map's viewport parameters (besides those of the query): read by parseViewport, described by the API. */
export const VIEWPORT_PARAMETERS = {
  bbox: bboxParameter,
  zoom: z
    .string()
    .trim()
    .min(1)
    .transform(Number)
    .pipe(z.number())
    .transform((v) => Math.round(clamp(v, 0, MAX_MAP_ZOOM)))
    .meta({
      description: `Map zoom 0–${MAX_MAP_ZOOM} (rounded, clamped); missing: the zoom that shows the bbox about 1 000 px wide`,
    }),
};

/**
 * The viewport of `bbox=south,west,north,east&zoom=Z`, forgiving like the query: a bbox that is not
 * four numbers, or crosses the antimeridian, is Libya; coordinates are clamped to the world; a
 * missing zoom is the one that shows the bbox about a thousand pixels wide.
 */
export function parseViewport(params: URLSearchParams): MapViewport {
  const parsedBbox = VIEWPORT_PARAMETERS.bbox.safeParse(params.get('bbox') ?? '');
  const bbox: Bbox = parsedBbox.success ? parsedBbox.data : LIBYA_BBOX;
  const parsedZoom = VIEWPORT_PARAMETERS.zoom.safeParse(params.get('zoom') ?? '');
  let zoom: number;
  if (parsedZoom.success) zoom = parsedZoom.data;
  else {
    const width = Math.max(mercatorX(bbox[3]) - mercatorX(bbox[1]), 1e-9);
    zoom = clamp(Math.floor(Math.log2(1000 / (TILE_PX * width))), 0, MAX_MAP_ZOOM);
  }
  return { bbox, zoom };
}

/**
 * Positions as whole pixels of the world at zoom 22 (2^30 a side: a few centimetres), so that a
 * grid cell is a bit shift away at any zoom.
 */
const WORLD_BITS = 30;
const WORLD = 2 ** WORLD_BITS;
/** A grid cell's side in screen pixels at the requested zoom: 2^6 = 64. */
const CELL_BITS = 6;
export const CELL_PX = 2 ** CELL_BITS;

const worldX = (lng: number) => clamp(Math.floor(mercatorX(lng) * WORLD), 0, WORLD - 1);
const worldY = (lat: number) => clamp(Math.floor(mercatorY(lat) * WORLD), 0, WORLD - 1);
const lngOf = (x: number) => (x / WORLD) * 360 - 180;
const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / WORLD))) * 180) / Math.PI;

/**
 * Each slot's world pixel, computed once (slots are only ever appended, and a changed ad gets a new
 * one), and the box around every slot so far.
 */
interface Pixels {
  xs: Uint32Array;
  ys: Uint32Array;
  done: number;
  extent: { minX: number; minY: number; maxX: number; maxY: number };
  /** [south, west, north, east] around the slots of each city and area, by id (a city's ads seen from afar). */
  cities: Map<number, Bbox>;
  areas: Map<number, Bbox>;
}

/** Grows `box` (in place) to hold a point. */
function stretch(boxes: Map<number, Bbox>, id: number, lat: number, lng: number) {
  const box = boxes.get(id);
  if (!box) boxes.set(id, [lat, lng, lat, lng]);
  else {
    if (lat < box[0]) box[0] = lat;
    if (lng < box[1]) box[1] = lng;
    if (lat > box[2]) box[2] = lat;
    if (lng > box[3]) box[3] = lng;
  }
}
const pixels = new WeakMap<AdIndex, Pixels>();

function pixelsOf(index: AdIndex) {
  let entry = pixels.get(index);
  if (!entry) {
    const n = Math.max(1024, index.size);
    entry = {
      xs: new Uint32Array(n),
      ys: new Uint32Array(n),
      done: 0,
      extent: { minX: WORLD, minY: WORLD, maxX: 0, maxY: 0 },
      cities: new Map(),
      areas: new Map(),
    };
    pixels.set(index, entry);
  }
  if (entry.done < index.size) {
    if (entry.xs.length < index.size) {
      const n = Math.max(index.size, entry.xs.length * 2);
      const xs = new Uint32Array(n);
      const ys = new Uint32Array(n);
      xs.set(entry.xs);
      ys.set(entry.ys);
      entry.xs = xs;
      entry.ys = ys;
    }
    const { lat, lng, city, area } = index;
    const { xs, ys, extent, cities, areas } = entry;
    for (let s = entry.done; s < index.size; s++) {
      const la = lat[s] as number;
      const ln = lng[s] as number;
      stretch(cities, city[s] as number, la, ln);
      stretch(areas, area[s] as number, la, ln);
      const x = worldX(ln);
      const y = worldY(la);
      xs[s] = x;
      ys[s] = y;
      if (x < extent.minX) extent.minX = x;
      if (x > extent.maxX) extent.maxX = x;
      if (y < extent.minY) extent.minY = y;
      if (y > extent.maxY) extent.maxY = y;
    }
    entry.done = index.size;
  }
  return entry;
}

/**
 * The map of everything (no filter), counted ahead: every published ad in a cell of CELL_PX pixels
 * at PRECOUNT_ZOOM over Libya, kept in step with the index by comparing each slot's liveness with
 * what was counted (a pass over a byte per slot, only when the index changed). A map of everything
 * up to PRECOUNT_UP_TO adds these cells up instead of visiting every ad: the common first view of
 * the map, and the most expensive one to scan. A precounted cell lies wholly inside a cell of the
 * map's grid; one cut by the viewport's edge counts whole (its ads are at most CELL_PX pixels at
 * PRECOUNT_ZOOM outside the view: 8 screen pixels at PRECOUNT_UP_TO).
 */
const PRECOUNT_ZOOM = 12;
const PRECOUNT_UP_TO = 9;
const PRECOUNT_SHIFT = WORLD_BITS - (PRECOUNT_ZOOM + 8) + CELL_BITS;

interface Precount {
  /** Global cell numbers of the grid's corner, its size. */
  gx0: number;
  gy0: number;
  cols: number;
  rows: number;
  count: Uint32Array;
  sumX: Float64Array;
  sumY: Float64Array;
  /** The XOR of the slots counted in the cell: the slot itself when it holds one ad. */
  xor: Int32Array;
  /** Per slot: 1 when counted (in a cell, or outside the grid). */
  counted: Uint8Array;
  /** Live ads outside the grid (none in practice: pins and places are in Libya). */
  outside: number;
  /** The index's size and live count when last brought in step. */
  size: number;
  live: number;
}
const precounts = new WeakMap<AdIndex, Precount>();

function precountOf(index: AdIndex, xs: Uint32Array, ys: Uint32Array): Precount {
  let p = precounts.get(index);
  if (!p) {
    const [south, west, north, east] = LIBYA_BBOX;
    const gx0 = worldX(west - 1) >>> PRECOUNT_SHIFT;
    const gy0 = worldY(north + 1) >>> PRECOUNT_SHIFT;
    const cols = (worldX(east + 1) >>> PRECOUNT_SHIFT) - gx0 + 1;
    const rows = (worldY(south - 1) >>> PRECOUNT_SHIFT) - gy0 + 1;
    const n = cols * rows;
    p = {
      gx0,
      gy0,
      cols,
      rows,
      count: new Uint32Array(n),
      sumX: new Float64Array(n),
      sumY: new Float64Array(n),
      xor: new Int32Array(n),
      counted: new Uint8Array(Math.max(1024, index.size)),
      outside: 0,
      size: 0,
      live: 0,
    };
    precounts.set(index, p);
  }
  if (p.size === index.size && p.live === index.live) return p;
  if (p.counted.length < index.size) {
    const grown = new Uint8Array(Math.max(index.size, p.counted.length * 2));
    grown.set(p.counted);
    p.counted = grown;
  }
  const { alive } = index;
  const { counted, count, sumX, sumY, xor, gx0, gy0, cols, rows } = p;
  for (let s = 0, n = index.size; s < n; s++) {
    const a = alive[s] as number;
    if (a === counted[s]) continue;
    counted[s] = a;
    const x = xs[s] as number;
    const y = ys[s] as number;
    const cx = (x >>> PRECOUNT_SHIFT) - gx0;
    const cy = (y >>> PRECOUNT_SHIFT) - gy0;
    const sign = a === 1 ? 1 : -1;
    if (cx < 0 || cy < 0 || cx >= cols || cy >= rows) {
      p.outside += sign;
      continue;
    }
    const c = cy * cols + cx;
    count[c] += sign;
    sumX[c] += sign * x;
    sumY[c] += sign * y;
    xor[c] ^= s;
  }
  p.size = index.size;
  p.live = index.live;
  return p;
}

/** Whether a filter lets every published ad through (the map of everything). */
const unfiltered = (f: ScanFilter, place: { cityId: number | null; areaId: number | null }) =>
  isPlain(f) && f.categories === null && place.cityId === null && place.areaId === null;

interface Cell {
  gx: number;
  gy: number;
  count: number;
  sumX: number;
  sumY: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Some of its slots (all of them when count ≤ their number). */
  slots: number[];
}

/**
 * Counts the ads that pass `filter`, the query's city and area and `bbox` (null: no position test)
 * into the map's grid: one pass of the index. `bbox` must lie within the grid.
 */
function scanInto(
  index: AdIndex,
  filter: ScanFilter,
  place: { cityId: number | null; areaId: number | null },
  bbox: Bbox | null,
  g: {
    xs: Uint32Array;
    ys: Uint32Array;
    shift: number;
    gx0: number;
    gy0: number;
    cols: number;
    keep: number;
    count: Uint32Array;
    sumX: Float64Array;
    sumY: Float64Array;
    minX: Uint32Array;
    minY: Uint32Array;
    maxX: Uint32Array;
    maxY: Uint32Array;
    kept: Int32Array;
  },
) {
  const { xs, ys, shift, gx0, gy0, cols, keep, count, sumX, sumY, minX, minY, maxX, maxY, kept } = g;
  const { city, area } = index;
  const { cityId, areaId } = place;
  // The scan's bbox test keeps every pixel inside the grid: flooring keeps the order of positions.
  const found = index.matching({ ...filter, bbox });
  for (let i = 0; i < found.length; i++) {
    const s = found[i] as number;
    if (cityId !== null && city[s] !== cityId) continue;
    if (areaId !== null && area[s] !== areaId) continue;
    const x = xs[s] as number;
    const y = ys[s] as number;
    const c = ((y >>> shift) - gy0) * cols + ((x >>> shift) - gx0);
    const k = count[c] as number;
    if (k < keep) kept[c * keep + k] = s;
    count[c] = k + 1;
    sumX[c] += x;
    sumY[c] += y;
    if (x < (minX[c] as number)) minX[c] = x;
    if (x > (maxX[c] as number)) maxX[c] = x;
    if (y < (minY[c] as number)) minY[c] = y;
    if (y > (maxY[c] as number)) maxY[c] = y;
  }
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/**
 * Clusters the ads that pass `filter` (and the query's city and area) inside the viewport. Pure
 * and synchronous: one scan of the index, then a few hundred cells.
 */
export function clusterAds(
  index: AdIndex,
  filter: ScanFilter,
  place: { cityId: number | null; areaId: number | null },
  viewport: MapViewport,
): { clusters: MapCluster[]; markers: MapMarker[]; total: number } {
  const { bbox, zoom } = viewport;
  const [south, west, north, east] = bbox;
  const keep = zoom >= MARKER_ZOOM ? EXPAND_UP_TO : 1;
  const x0 = worldX(west);
  const x1 = worldX(east);
  const y0 = worldY(north);
  const y1 = worldY(south);
  // The grid: a cell is CELL_PX screen pixels at the zoom, numbered from the world's corner so it
  // stays put as the map pans; a viewport much larger than a screen gets larger cells.
  let shift = WORLD_BITS - (Math.round(clamp(zoom, 0, MAX_MAP_ZOOM)) + 8) + CELL_BITS;
  let gx0 = 0;
  let gy0 = 0;
  let cols = 0;
  let rows = 0;
  for (;;) {
    gx0 = x0 >>> shift;
    gy0 = y0 >>> shift;
    cols = (x1 >>> shift) - gx0 + 1;
    rows = (y1 >>> shift) - gy0 + 1;
    if (cols * rows <= MAX_CELLS || shift >= WORLD_BITS) break;
    shift++;
  }
  const n = cols * rows;
  const count = new Uint32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const minX = new Uint32Array(n).fill(WORLD);
  const minY = new Uint32Array(n).fill(WORLD);
  const maxX = new Uint32Array(n);
  const maxY = new Uint32Array(n);
  const kept = new Int32Array(n * keep);
  const { xs, ys, extent, cities, areas } = pixelsOf(index);
  const p = zoom <= PRECOUNT_UP_TO && unfiltered(filter, place) ? precountOf(index, xs, ys) : null;
  const within =
    p !== null &&
    x0 >>> PRECOUNT_SHIFT >= p.gx0 &&
    x1 >>> PRECOUNT_SHIFT < p.gx0 + p.cols &&
    y0 >>> PRECOUNT_SHIFT >= p.gy0 &&
    y1 >>> PRECOUNT_SHIFT < p.gy0 + p.rows;
  if (p !== null && (p.outside === 0 || within)) {
    // Add up the precounted cells the viewport touches (within the precount's grid, which holds
    // every ad when none is outside it).
    const k = shift - PRECOUNT_SHIFT;
    const bx0 = Math.max(0, (x0 >>> PRECOUNT_SHIFT) - p.gx0);
    const bx1 = Math.min(p.cols - 1, (x1 >>> PRECOUNT_SHIFT) - p.gx0);
    const by0 = Math.max(0, (y0 >>> PRECOUNT_SHIFT) - p.gy0);
    const by1 = Math.min(p.rows - 1, (y1 >>> PRECOUNT_SHIFT) - p.gy0);
    const side = 2 ** PRECOUNT_SHIFT;
    for (let by = by0; by <= by1; by++) {
      const gy = p.gy0 + by;
      const top = gy * side;
      const row = ((gy >>> k) - gy0) * cols;
      for (let bx = bx0, b = by * p.cols + bx0; bx <= bx1; bx++, b++) {
        const m = p.count[b] as number;
        if (m === 0) continue;
        const gx = p.gx0 + bx;
        const left = gx * side;
        const c = row + ((gx >>> k) - gx0);
        const before = count[c] as number;
        if (before === 0 && m === 1) kept[c * keep] = p.xor[b] as number;
        count[c] = before + m;
        sumX[c] += p.sumX[b] as number;
        sumY[c] += p.sumY[b] as number;
        if (left < (minX[c] as number)) minX[c] = left;
        if (left + side - 1 > (maxX[c] as number)) maxX[c] = left + side - 1;
        if (top < (minY[c] as number)) minY[c] = top;
        if (top + side - 1 > (maxY[c] as number)) maxY[c] = top + side - 1;
      }
    }
  } else {
    // A city's (or area's) ads lie within its box: the scan's position test then leaves the other
    // places' ads out before they cost a visit.
    let box: Bbox | null = bbox;
    for (const [id, boxes] of [
      [place.cityId, cities],
      [place.areaId, areas],
    ] as const) {
      if (id === null || box === null) continue;
      const own = boxes.get(id);
      box = own
        ? [Math.max(box[0], own[0]), Math.max(box[1], own[1]), Math.min(box[2], own[2]), Math.min(box[3], own[3])]
        : null;
      if (box && (box[0] > box[2] || box[1] > box[3])) box = null;
    }
    // A viewport around every ad (Libya at a low zoom) needs no position test at all.
    const everywhere = box === bbox && x0 <= extent.minX && x1 >= extent.maxX && y0 <= extent.minY && y1 >= extent.maxY;
    if (box !== null) {
      const grid = { xs, ys, shift, gx0, gy0, cols, keep, count, sumX, sumY, minX, minY, maxX, maxY, kept };
      scanInto(index, filter, place, everywhere ? null : box, grid);
    }
  }
  let total = 0;
  let cells: Cell[] = [];
  for (let c = 0; c < n; c++) {
    const k = count[c] as number;
    if (k === 0) continue;
    total += k;
    cells.push({
      gx: gx0 + (c % cols),
      gy: gy0 + Math.floor(c / cols),
      count: k,
      sumX: sumX[c] as number,
      sumY: sumY[c] as number,
      minX: minX[c] as number,
      minY: minY[c] as number,
      maxX: maxX[c] as number,
      maxY: maxY[c] as number,
      slots: Array.from(kept.subarray(c * keep, c * keep + Math.min(k, keep))),
    });
  }
  // Too many cells for one answer: four neighbours become one, until they fit.
  while (cells.length > MAX_MAP_ITEMS) cells = mergeCells(cells, keep);

  const clusters: MapCluster[] = [];
  const markers: MapMarker[] = [];
  const { lat, lng } = index;
  const marker = (s: number) => ({
    id: index.id[s] as number,
    lat: round5(lat[s] as number),
    lng: round5(lng[s] as number),
  });
  // Close up, the smallest cells open into their markers while the answer stays within its cap.
  let items = cells.length;
  const open = new Set<Cell>();
  if (keep > 1) {
    for (const cell of cells.filter((x) => x.count > 1 && x.count <= keep).sort((a, b) => a.count - b.count)) {
      if (items + cell.count - 1 > MAX_MAP_ITEMS) break;
      items += cell.count - 1;
      open.add(cell);
    }
  }
  for (const cell of cells) {
    if (cell.count === 1) markers.push(marker(cell.slots[0] as number));
    else if (open.has(cell)) for (const s of cell.slots) markers.push(marker(s));
    else {
      const cluster: MapCluster = {
        lat: round5(latOf(cell.sumY / cell.count)),
        lng: round5(lngOf(cell.sumX / cell.count)),
        count: cell.count,
        bounds: [
          round5(latOf(cell.maxY + 1)),
          round5(lngOf(cell.minX)),
          round5(latOf(cell.minY)),
          round5(lngOf(cell.maxX + 1)),
        ],
      };
      if (keep > 1) cluster.ids = cell.slots.map((s) => index.id[s] as number);
      clusters.push(cluster);
    }
  }
  return { clusters, markers, total };
}

/** Cells twice the size: each 2×2 block of cells as one. */
function mergeCells(cells: Cell[], keep: number): Cell[] {
  const merged = new Map<string, Cell>();
  for (const c of cells) {
    const gx = Math.floor(c.gx / 2);
    const gy = Math.floor(c.gy / 2);
    const key = `${gx},${gy}`;
    const m = merged.get(key);
    if (!m) {
      merged.set(key, { ...c, gx, gy, slots: [...c.slots] });
      continue;
    }
    m.count += c.count;
    m.sumX += c.sumX;
    m.sumY += c.sumY;
    m.minX = Math.min(m.minX, c.minX);
    m.minY = Math.min(m.minY, c.minY);
    m.maxX = Math.max(m.maxX, c.maxX);
    m.maxY = Math.max(m.maxY, c.maxY);
    for (const s of c.slots) if (m.slots.length < keep) m.slots.push(s);
  }
  return [...merged.values()];
}

/**
 * The map of a resolved query in a viewport: text narrowed by the database's index first (the
 * newest TEXT_MATCH_CAP matches of a very common word, as the list does), the rest in memory.
 */
export async function searchMap(
  handle: DatabaseHandle,
  resolved: ResolvedQuery,
  viewport: MapViewport,
  now = Date.now(),
): Promise<MapResult> {
  const engine = searchEngine(handle);
  const q = resolved.query.q;
  const [index, text, catalogue] = await Promise.all([
    engine.index(),
    q ? engine.text(q, false) : null,
    engine.catalogue(),
  ]);
  const filter = scanFilter(catalogue, resolved, text ? text.ids : null, now);
  return { ...clusterAds(index, filter, resolved, viewport), exact: text ? text.exact : true };
}
