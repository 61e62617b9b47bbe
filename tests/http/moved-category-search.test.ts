// A search naming a category by its old slug (docs/product/search.md, "Moved categories"), on the
// built server: once staff rename a category, `/posts?category=<old>` and `/posts/map?category=<old>`
// answer 301 to the same query with the new slug (every other parameter kept as it was), like the
// category page; `GET /api/posts` answers with the category's ads as it is now and names its new
// slug in `meta.query`; an unknown slug is still dropped as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as query } from '../support/server-db.ts';

const RUN = Date.now().toString(36);
const OLD = `mv-${RUN}`;
const NEW = `mv-${RUN}-new`;

describe('a search by a category’s old slug', () => {
  let admin: Browser;
  let adId: number;
  beforeAll(async () => {
    admin = browser();
    expect((await admin.post('/en/login', { login: 'admin@souq.test', password: 'password123' })).status).toBe(302);
    const created = await admin.post('/en/admin/categories/motors', {
      intent: 'create',
      name_ar: 'فئة منقولة',
      name_en: 'Moved category',
      slug: OLD,
      icon: 'sailboat',
    });
    expect(created.status).toBe(302);
    const cat = query<{ id: number; taxonomy_id: number }>(
      'select id, taxonomy_id from categories where slug = ?',
      OLD,
    )[0] as { id: number; taxonomy_id: number };
    const city = query<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id as number;
    const now = new Date().toISOString();
    adId = query<{ id: number }>(
      `insert into ads (taxonomy_id, category_id, slug, title, description, city_id, status, published_at, bumped_at, updated_at)
       values (?, ?, 'moved-boat', 'Moved boat', 'A boat in a renamed category', ?, 'published', ?, ?, ?) returning id`,
      cat.taxonomy_id,
      cat.id,
      city,
      now,
      now,
      now,
    )[0]?.id as number;
    const renamed = await admin.post(`/en/admin/categories/motors/${OLD}`, {
      intent: 'rename',
      name_ar: 'فئة منقولة',
      name_en: 'Moved category',
      slug: NEW,
      icon: 'sailboat',
    });
    expect(renamed.status).toBe(302);
  });

  it('answers /posts with 301 to the same query with the new slug, in both languages', async () => {
    const visitor = browser();
    const ar = await visitor.get(`/posts?sort=price-asc&category=${OLD}&city=tripoli`);
    expect(ar.status).toBe(301);
    expect(ar.headers.get('location')).toBe(`/posts?sort=price-asc&category=${NEW}&city=tripoli`);
    const en = await visitor.get(`/en/posts?category=${OLD}&q=boat&price_min=10`);
    expect(en.status).toBe(301);
    expect(en.headers.get('location')).toBe(`/en/posts?category=${NEW}&q=boat&price_min=10`);
    // The new address lists the ad.
    const page = await visitor.get(`/en/posts?category=${NEW}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`moved-boat-${adId}`);
  });

  it('answers the map page with 301 too, keeping where the map looks', async () => {
    const res = await browser().get(`/en/posts/map?category=${OLD}&view=32.9,13.2,10`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/en/posts/map?category=${NEW}&view=32.9,13.2,10`);
  });

  it('answers the API with the category’s ads as it is now, naming its new slug', async () => {
    const res = await browser().get(`/api/posts?category=${OLD}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { id: number }[];
      meta: { query: { category: string }; canonical: string; total: number };
    };
    expect(body.data.map((a) => a.id)).toEqual([adId]);
    expect(body.meta.query.category).toBe(NEW);
    expect(body.meta.canonical).toBe(`category=${NEW}`);
  });

  it('drops a slug that no category ever had, as before (302 to the query without it)', async () => {
    const res = await browser().get(`/posts?category=never-${RUN}&sort=price-asc`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/posts?sort=price-asc');
  });
});
