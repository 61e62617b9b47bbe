// The map of search results over real HTTP (docs/product/search.md): clusters that add up, a lone ad as its
// marker close up, the filters of the list, forgiving viewports, the marker's card and the page.
// Other suites place ads meanwhile: every count here is narrowed to this file's own ads (a price
// nobody else uses, a word nobody else writes).
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { member, type PlacedTestAd, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const base = inject('baseUrl');

interface MapAnswer {
  clusters: { lat: number; lng: number; count: number; bounds: number[]; ids?: number[] }[];
  markers: { id: number; lat: number; lng: number }[];
  total: number;
  exact: boolean;
}

async function map(params: string): Promise<MapAnswer> {
  const res = await fetch(`${base}/api/posts/map?${params}`);
  expect(res.status, params).toBe(200);
  return (await res.json()) as MapAnswer;
}

const counted = (m: MapAnswer) => m.clusters.reduce((n, c) => n + c.count, 0) + m.markers.length;

describe('the map API', () => {
  const word = `mapword${Math.random().toString(36).slice(2, 8)}`;
  const price = 1_000_000 + Math.floor(Math.random() * 900_000);
  const only = `price_min=${price}&price_max=${price}`;
  let lone: PlacedTestAd;
  let other: PlacedTestAd;
  let hidden: PlacedTestAd;

  beforeAll(async () => {
    const seller = await member('map-seller');
    lone = await placeToyota(seller, `Toyota Corolla ${word} clean`, { price: String(price) });
    other = await placeToyota(seller, 'Toyota Corolla for the map', { price: String(price) });
    hidden = await placeToyota(seller, `Toyota Corolla ${word} hidden`, { price: String(price) });
    publish(lone.id);
    publish(other.id);
    sql(
      "update ads set status = 'rejected', updated_at = ? where id = ? returning id",
      new Date().toISOString(),
      hidden.id,
    );
  });

  it('answers clusters over Libya that add up to the total, cacheable briefly', async () => {
    const res = await fetch(`${base}/api/posts/map?zoom=5`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    const all = (await res.json()) as MapAnswer;
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(counted(all)).toBe(all.total);
    expect(all.clusters.length + all.markers.length).toBeLessThanOrEqual(400);
    for (const c of all.clusters) {
      expect(c.count).toBeGreaterThan(1);
      expect(c.bounds).toHaveLength(4);
    }
    const mine = await map(`${only}&bbox=19.5,9.3,33.2,25.2&zoom=5`);
    expect(mine.total).toBe(2);
    expect(counted(mine)).toBe(2);
  });

  it('shows a lone ad as its marker, and close up over its place', async () => {
    const found = await map(`q=${word}&zoom=6`);
    expect(found).toMatchObject({ total: 1, exact: true, clusters: [] });
    const at = found.markers[0];
    expect(at?.id).toBe(lone.id);
    const { lat, lng } = at as { lat: number; lng: number };
    const d = 0.0008;
    const close = await map(`bbox=${lat - d},${lng - d},${lat + d},${lng + d}&zoom=18`);
    const ids = [...close.markers.map((m) => m.id), ...close.clusters.flatMap((c) => c.ids ?? [])];
    expect(ids).toContain(lone.id);
    expect(close.markers.find((m) => m.id === lone.id)).toEqual({ id: lone.id, lat, lng });
  });

  it('applies the filters of the list', async () => {
    expect((await map(only)).total).toBe(2);
    expect((await map(`category=toyota&${only}`)).total).toBe(2);
    expect((await map(`taxonomy=motors&${only}`)).total).toBe(2);
    expect((await map(`category=apartments-for-sale&${only}`)).total).toBe(0);
    expect((await map(`city=benghazi&${only}`)).total).toBe(0);
    expect((await map(`city=tripoli&${only}`)).total).toBe(2);
    expect((await map(`price_min=${price + 1}&price_max=${price + 1}`)).total).toBe(0);
    expect((await map(`q=${word}`)).total).toBe(1);
    // A viewport away from Tripoli holds none of them.
    expect((await map(`${only}&bbox=31,19,33,21&zoom=8`)).total).toBe(0);
  });

  it('reads a bad viewport as Libya instead of failing', async () => {
    for (const bad of [
      'bbox=nonsense&zoom=banana',
      'bbox=1,2,3',
      'bbox=,,,&zoom=',
      'bbox=40,30,10,5&zoom=-3',
      'bbox=-999,-999,999,999&zoom=999',
      'zoom=1e400',
    ]) {
      const m = await map(`${only}&${bad}`);
      expect(m.total, bad).toBe(2);
      expect(counted(m), bad).toBe(2);
    }
    // Unknown filters are dropped, as on the list.
    expect((await map(`${only}&category=no-such&f.colour=red&sort=sideways`)).total).toBe(2);
  });

  it('gives the card of a published ad, and 404 for any other', async () => {
    const res = await fetch(`${base}/api/posts/${lone.id}/card`);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({
      id: lone.id,
      title: `Toyota Corolla ${word} clean`,
      price,
      currency: 'LYD',
      taxonomy_slug: 'motors',
      category_slug: 'toyota',
      city: { name_en: 'Tripoli' },
    });
    for (const id of [hidden.id, 999_999_999, 0]) {
      const gone = await fetch(`${base}/api/posts/${id}/card`, { headers: { 'x-locale': 'en' } });
      expect(gone.status, String(id)).toBe(404);
      expect(await gone.json()).toEqual({ message: 'Not found.' });
    }
    expect((await fetch(`${base}/api/posts/abc/card`)).status).toBe(404);
    expect((await fetch(`${base}/api/posts/99999999999999/card`)).status).toBe(404);
  });

  it('describes both endpoints in OpenAPI', async () => {
    const doc = await (await fetch(`${base}/api/openapi.json`)).json();
    expect(doc.paths['/posts/map'].get).toBeDefined();
    expect(doc.paths['/posts/{id}/card'].get).toBeDefined();
    expect(doc.components.schemas.AdMap).toBeDefined();
  });
});

describe('the map page', () => {
  it('answers in both languages with the filters of the query', async () => {
    const ar = await browser().get('/posts/map?category=cars&city=tripoli');
    expect(ar.status).toBe(200);
    const html = await ar.text();
    expect(html).toContain('الإعلانات على الخريطة');
    expect(html).toContain('href="/posts?category=cars&amp;city=tripoli"');
    const en = await (await browser().get('/en/posts/map?q=corolla')).text();
    expect(en).toContain('Ads on the map');
    expect(en).toContain('href="/en/posts?q=corolla"');
  });

  it('moves to the canonical address, keeping where the map looks', async () => {
    const moved = async (path: string) => {
      const res = await browser().get(path);
      expect(res.status, path).toBe(302);
      return res.headers.get('location');
    };
    // The filters form sent without JavaScript.
    expect(await moved('/en/posts/map?q=corolla&scope=category%3Atoyota&city=tripoli')).toBe(
      '/en/posts/map?q=corolla&category=toyota&city=tripoli',
    );
    expect(await moved('/posts/map?city=tripoli&q=corolla&view=32.9,13.2,9&page=2')).toBe(
      '/posts/map?q=corolla&city=tripoli&view=32.9,13.2,9',
    );
    expect(await moved('/en/posts/map?category=no-such&view=nonsense')).toBe('/en/posts/map');
    const canonical = await browser().get('/en/posts/map?category=cars&view=32.88720,13.19130,8');
    expect(canonical.status).toBe(200);
    expect(await canonical.text()).toContain('<meta name="robots" content="noindex"');
    expect(await (await browser().get('/en/posts/map')).text()).not.toContain('<meta name="robots"');
  });
});
