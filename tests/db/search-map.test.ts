// The map of search results on both dialects (docs/product/search.md): the query's filters and text (through
// the database's index) narrow the clusters; positions are the approximate ones of the ad page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { mapPosition } from '../../server/domain/search/ad-index.ts';
import { parseViewport, searchMap } from '../../server/domain/search/map.ts';
import { resolveQuery, searchEngine } from '../../server/domain/search/service.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

describe.each(dialects)('the map on %s', (dialect) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};

  async function place(name: string, title: string, category: string, city: string, pin?: [number, number]) {
    ids[name] = await placeSearchAd(t, { title, category, city, pin });
  }

  const map = async (params: string) => {
    const p = new URLSearchParams(params);
    const resolved = resolveQuery(await searchEngine(t).catalogue(), parseSearchQuery(p));
    return searchMap(t, resolved, parseViewport(p));
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await place('corolla', 'تويوتا كورولا', 'toyota', 'tripoli', [32.9, 13.2]);
    await place('camry', 'تويوتا كامري', 'toyota', 'tripoli');
    await place('flat', 'شقة للإيجار', 'apartments-for-rent', 'benghazi');
  });
  afterAll(() => t.drop());

  it('clusters every published ad over Libya, and narrows by filter and text', async () => {
    const all = await map('zoom=5');
    expect(all.total).toBe(3);
    expect(all.clusters.reduce((n, c) => n + c.count, 0) + all.markers.length).toBe(3);
    expect((await map('category=cars&zoom=5')).total).toBe(2);
    expect((await map('city=benghazi&zoom=5')).markers.map((m) => m.id)).toEqual([ids.flat]);
    const text = await map('q=كورولا&zoom=5');
    expect(text).toMatchObject({ total: 1, exact: true, clusters: [] });
    expect(text.markers.map((m) => m.id)).toEqual([ids.corolla]);
  });

  it('draws an ad where its page does, never on the owner’s pin', async () => {
    const { markers } = await map('q=كورولا&zoom=5');
    const [m] = markers;
    const at = mapPosition(ids.corolla as number, { lat: 32.9, lng: 13.2 }, null, { lat: 0, lng: 0 });
    expect(m?.lat).toBeCloseTo(at.lat, 4);
    expect(m?.lng).toBeCloseTo(at.lng, 4);
    expect(m?.lat === 32.9 && m?.lng === 13.2).toBe(false);
  });
});
