// The map's clustering (docs/product/search.md) over an index built by hand: every ad in the viewport counted
// once, the caps held at any zoom and density, markers for lone ads and close up, and a forgiving
// reading of the viewport parameters.
import { describe, expect, it } from 'vitest';
import { AdIndex, type IndexRow } from '../../server/domain/search/ad-index.ts';
import {
  type Bbox,
  clusterAds,
  EXPAND_UP_TO,
  LIBYA_BBOX,
  MAX_MAP_ITEMS,
  type MapViewport,
  parseViewport,
} from '../../server/domain/search/map.ts';
import { NO_FILTER } from '../support/scan-filter.ts';

const ANYWHERE = { cityId: null, areaId: null };
const SINCE_EVER = { kind: 'at-least', column: 'bumped', min: -1 } as const;

function row(id: number, lat: number, lng: number, over: Partial<IndexRow> = {}): IndexRow {
  return {
    id,
    category: 1,
    city: 1,
    area: 0,
    price: 1000,
    currency: 0,
    photos: false,
    company: false,
    bumped: 0,
    featuredUntil: 0,
    lat,
    lng,
    ...over,
  };
}

/** A small deterministic generator, so failures repeat. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    return x / 2 ** 32;
  };
}

const counted = (r: ReturnType<typeof clusterAds>) => r.clusters.reduce((n, c) => n + c.count, 0) + r.markers.length;

describe('clusterAds', () => {
  const index = new AdIndex();
  const next = rng(7);
  // 20 000 ads: most around Tripoli and Benghazi (dense), the rest anywhere in Libya.
  for (let id = 1; id <= 20_000; id++) {
    const r = next();
    const [lat, lng] =
      r < 0.5
        ? [32.88 + (next() - 0.5) * 0.1, 13.19 + (next() - 0.5) * 0.1]
        : r < 0.8
          ? [32.11 + (next() - 0.5) * 0.1, 20.08 + (next() - 0.5) * 0.1]
          : [20 + next() * 13, 10 + next() * 15];
    index.put(row(id, lat, lng, { category: id % 2 === 0 ? 1 : 2, city: r < 0.5 ? 1 : 2 }));
  }
  // A lone ad in the desert, and three close together, away from the others.
  index.put(row(30_001, 19.7, 24.9));
  for (const [i, d] of [0, 0.0004, 0.0008].entries()) index.put(row(30_010 + i, 19.6 + d, 9.6 + d));

  it('counts every ad of the viewport once, within the cap, at every zoom', () => {
    for (const zoom of [0, 3, 5, 8, 11, 14, 16, 19]) {
      const r = clusterAds(index, NO_FILTER, ANYWHERE, { bbox: LIBYA_BBOX, zoom });
      expect(r.total, `zoom ${zoom}`).toBe(20_004);
      expect(counted(r), `zoom ${zoom}`).toBe(r.total);
      expect(r.clusters.length + r.markers.length, `zoom ${zoom}`).toBeLessThanOrEqual(MAX_MAP_ITEMS);
    }
  });

  it('draws a cluster at the mean of its ads, with their bounds', () => {
    const r = clusterAds(index, NO_FILTER, ANYWHERE, { bbox: [32.8, 13.1, 32.95, 13.3], zoom: 8 });
    expect(r.clusters.length).toBeGreaterThanOrEqual(1);
    expect(r.clusters.length).toBeLessThanOrEqual(4);
    const mean = (k: 'lat' | 'lng') => r.clusters.reduce((sum, c) => sum + c[k] * c.count, 0) / r.total;
    expect(mean('lat')).toBeCloseTo(32.88, 2);
    expect(mean('lng')).toBeCloseTo(13.19, 2);
    for (const c of r.clusters) {
      const [s, w, n, e] = c.bounds;
      expect(s).toBeLessThanOrEqual(c.lat);
      expect(n).toBeGreaterThanOrEqual(c.lat);
      expect(w).toBeLessThanOrEqual(c.lng);
      expect(e).toBeGreaterThanOrEqual(c.lng);
    }
  });

  it('shows a lone ad as its marker, and close up a few ads as theirs', () => {
    const far: MapViewport = { bbox: [19.5, 24.5, 19.9, 25.2], zoom: 5 };
    expect(clusterAds(index, NO_FILTER, ANYWHERE, far).markers).toEqual([{ id: 30_001, lat: 19.7, lng: 24.9 }]);
    const three: MapViewport = { bbox: [19.59, 9.59, 19.61, 9.61], zoom: 12 };
    expect(clusterAds(index, NO_FILTER, ANYWHERE, three).clusters.map((c) => c.count)).toEqual([3]);
    const close = clusterAds(index, NO_FILTER, ANYWHERE, { ...three, zoom: 16 });
    expect(close.clusters).toEqual([]);
    expect(close.markers.map((m) => m.id).sort()).toEqual([30_010, 30_011, 30_012]);
  });

  it('keeps a dense spot as clusters close up, naming some of their ads', () => {
    const r = clusterAds(index, NO_FILTER, ANYWHERE, { bbox: [32.87, 13.18, 32.89, 13.2], zoom: 19 });
    expect(counted(r)).toBe(r.total);
    for (const c of r.clusters) {
      expect(c.count).toBeGreaterThan(1);
      expect(c.ids?.length).toBe(Math.min(c.count, EXPAND_UP_TO));
    }
  });

  it('applies the filter and the city', () => {
    const all = clusterAds(index, NO_FILTER, ANYWHERE, { bbox: LIBYA_BBOX, zoom: 6 }).total;
    const categories = new Uint8Array(3);
    categories[2] = 1;
    const odd = clusterAds(index, { ...NO_FILTER, categories }, ANYWHERE, { bbox: LIBYA_BBOX, zoom: 6 });
    expect(odd.total).toBeGreaterThan(0);
    expect(odd.total).toBeLessThan(all);
    // A city, counted the long way: its live ads inside the view.
    const inCity = (cityId: number, [s, w, n, e]: Bbox) => {
      let k = 0;
      for (let slot = 0; slot < index.size; slot++) {
        const la = index.lat[slot] as number;
        const ln = index.lng[slot] as number;
        if (index.alive[slot] === 1 && index.city[slot] === cityId && la >= s && la <= n && ln >= w && ln <= e) k++;
      }
      return k;
    };
    for (const [bbox, zoom] of [
      [LIBYA_BBOX, 6],
      [[31.3, 9.8, 34.3, 16.6], 8],
      [[32.85, 13.15, 32.9, 13.25], 13],
      [[20, 10, 25, 15], 10],
    ] as [Bbox, number][]) {
      for (const cityId of [1, 2]) {
        const r = clusterAds(index, NO_FILTER, { cityId, areaId: null }, { bbox, zoom });
        expect(r.total, `city ${cityId} zoom ${zoom}`).toBe(inCity(cityId, bbox));
        expect(counted(r)).toBe(r.total);
      }
    }
    // A city without ads.
    expect(clusterAds(index, NO_FILTER, { cityId: 9, areaId: null }, { bbox: LIBYA_BBOX, zoom: 6 }).total).toBe(0);
    const text = clusterAds(index, { ...NO_FILTER, candidates: [30_001, 5, 999_999] }, ANYWHERE, {
      bbox: LIBYA_BBOX,
      zoom: 6,
    });
    expect(text.total).toBe(2);
  });

  it('adds up the precounted map of everything as a scan would count it', () => {
    // Bumped at or after -1 lets every ad through but is not "no filter": the scan path.
    const scanned = { ...NO_FILTER, columns: [SINCE_EVER] };
    for (const [bbox, zoom] of [
      [LIBYA_BBOX, 5],
      [LIBYA_BBOX, 7],
      [[31.3, 9.8, 34.3, 16.6], 8],
      [[32.6, 12.7, 33.1, 13.7], 9],
      [[19.55, 9.55, 19.65, 9.65], 9],
    ] as [Bbox, number][]) {
      const fast = clusterAds(index, NO_FILTER, ANYWHERE, { bbox, zoom });
      const slow = clusterAds(index, scanned, ANYWHERE, { bbox, zoom });
      const key = (r: typeof fast) => [
        r.total,
        r.markers.map((m) => m.id).sort(),
        r.clusters.map((c) => `${c.count}@${c.lat.toFixed(3)},${c.lng.toFixed(3)}`).sort(),
      ];
      // A precounted cell cut by the viewport's edge counts whole: views inside Libya's ads match.
      if (bbox === LIBYA_BBOX) expect(key(fast), `zoom ${zoom}`).toEqual(key(slow));
      else expect(Math.abs(fast.total - slow.total), `zoom ${zoom}`).toBeLessThanOrEqual(fast.total * 0.02 + 3);
      expect(counted(fast)).toBe(fast.total);
    }
  });

  it('follows ads added, changed and removed after the first map', () => {
    const small = new AdIndex();
    small.put(row(1, 30, 15));
    const view = { bbox: LIBYA_BBOX, zoom: 5 };
    expect(clusterAds(small, NO_FILTER, ANYWHERE, view).markers).toEqual([{ id: 1, lat: 30, lng: 15 }]);
    for (let id = 2; id <= 3000; id++) small.put(row(id, 20 + (id % 13), 10 + (id % 15)));
    small.remove(1);
    small.put(row(2, 31, 16)); // moved: a new slot, the old one dead
    // The precounted map of everything, and a scan.
    for (const filter of [NO_FILTER, { ...NO_FILTER, columns: [SINCE_EVER] }]) {
      const r = clusterAds(small, filter, ANYWHERE, view);
      expect(r.total).toBe(2999);
      expect(counted(r)).toBe(2999);
    }
    // Alone again in its cell: a marker, found through what is left of the cell.
    for (let id = 3; id <= 3000; id++) small.remove(id);
    expect(clusterAds(small, NO_FILTER, ANYWHERE, view)).toEqual({
      clusters: [],
      markers: [{ id: 2, lat: 31, lng: 16 }],
      total: 1,
    });
  });
});

describe('parseViewport', () => {
  const parse = (s: string) => parseViewport(new URLSearchParams(s));

  it('reads bbox and zoom', () => {
    expect(parse('bbox=32.1,12.5,33.2,14&zoom=9')).toEqual({ bbox: [32.1, 12.5, 33.2, 14], zoom: 9 });
    expect(parse('bbox=33.2,12.5,32.1,14&zoom=9.6').bbox).toEqual([32.1, 12.5, 33.2, 14]);
    expect(parse('bbox=32.1,12.5,33.2,14&zoom=9.6').zoom).toBe(10);
  });

  it('falls back to Libya and clamps instead of failing', () => {
    for (const bad of ['', 'bbox=', 'bbox=1,2,3', 'bbox=a,b,c,d', 'bbox=1,2,3,4,5', 'bbox=1,,3,4', 'bbox=10,20,30,5']) {
      expect(parse(`${bad}&zoom=6`).bbox, bad).toEqual(LIBYA_BBOX);
    }
    expect(parse('bbox=-100,-500,100,500&zoom=3').bbox).toEqual([-85.05112878, -180, 85.05112878, 180]);
    expect(parse('zoom=99').zoom).toBe(19);
    expect(parse('zoom=-4').zoom).toBe(0);
    // No zoom: the one that shows the bbox about a thousand pixels wide.
    expect(parse('zoom=x').zoom).toBe(parse('').zoom);
    expect(parse('').zoom).toBeGreaterThanOrEqual(5);
    expect(parse('').zoom).toBeLessThanOrEqual(6);
  });
});
