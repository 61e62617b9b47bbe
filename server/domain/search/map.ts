// The map of search results (issue 5 §4, PRODUCT.md §3 `/posts/map`): the ads of a query inside the
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

import type { DatabaseHandle } from '../../db/index.ts';
import { textCandidates } from '../../db/text-search.ts';
import type { AdIndex, ScanFilter } from './ad-index.ts';
import { type ResolvedQuery, scanFilter, searchEngine, TEXT_MATCH_CAP } from './service.ts';

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

/**
 * The viewport of `bbox=south,west,north,east&zoom=Z`, forgiving like the query: a bbox that is not
 * four numbers, or crosses the antimeridian, is Libya; coordinates are clamped to the world; a
 * missing zoom is the one that shows the bbox about a thousand pixels wide.
 */
export function parseViewport(params: URLSearchParams): MapViewport {
  let bbox: Bbox = LIBYA_BBOX;
  const parts = (params.get('bbox') ?? '').split(',');
  if (parts.length === 4 && parts.every((p) => p.trim() !== '' && Number.isFinite(Number(p)))) {
    let [s, w, n, e] = parts.map(Number) as Bbox;
    s = clamp(s, -MAX_LAT, MAX_LAT);
    n = clamp(n, -MAX_LAT, MAX_LAT);
    w = clamp(w, -180, 180);
    e = clamp(e, -180, 180);
    if (s > n) [s, n] = [n, s];
    if (w <= e) bbox = [s, w, n, e];
  }
  const raw = params.get('zoom');
  const z = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
  let zoom: number;
  if (Number.isFinite(z)) zoom = Math.round(clamp(z, 0, MAX_MAP_ZOOM));
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
    const { lat, lng } = index;
    const { xs, ys, extent } = entry;
    for (let s = entry.done; s < index.size; s++) {
      const x = worldX(lng[s] as number);
      const y = worldY(lat[s] as number);
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
  const { xs, ys, extent } = pixelsOf(index);
  // A viewport around every ad (Libya at a low zoom) needs no position test at all.
  const everywhere = x0 <= extent.minX && x1 >= extent.maxX && y0 <= extent.minY && y1 >= extent.maxY;
  const { city, area } = index;
  const { cityId, areaId } = place;
  // Constants for the visit below (closures read `let`s from their context on every call).
  const by = shift;
  const left = gx0;
  const top = gy0;
  const width = cols;
  // The scan's bbox test keeps every pixel inside the grid: flooring keeps the order of positions.
  index.scan({ ...filter, bbox: everywhere ? null : [south, west, north, east] }, (s) => {
    if (cityId !== null && city[s] !== cityId) return;
    if (areaId !== null && area[s] !== areaId) return;
    const x = xs[s] as number;
    const y = ys[s] as number;
    const c = ((y >>> by) - top) * width + ((x >>> by) - left);
    const k = count[c] as number;
    if (k < keep) kept[c * keep + k] = s;
    count[c] = k + 1;
    sumX[c] += x;
    sumY[c] += y;
    if (x < (minX[c] as number)) minX[c] = x;
    if (x > (maxX[c] as number)) maxX[c] = x;
    if (y < (minY[c] as number)) minY[c] = y;
    if (y > (maxY[c] as number)) maxY[c] = y;
  });
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
    q ? textCandidates(handle.db, handle.dialect, q, TEXT_MATCH_CAP, false) : null,
    engine.catalogue(),
  ]);
  const filter = scanFilter(catalogue, resolved, text ? text.ids : null, now);
  return { ...clusterAds(index, filter, resolved, viewport), exact: text ? text.exact : true };
}
