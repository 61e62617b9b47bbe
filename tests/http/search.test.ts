// `/posts`, the category listings and `GET /api/posts` against the built server: Arabic-aware text,
// filters that narrow the count, canonical URLs (junk dropped, never an error page), page limits,
// and "save this search".
import { describe, expect, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

interface ApiResult {
  data: { id: number; title: string }[];
  meta: {
    total: number;
    total_exact: boolean;
    canonical: string;
    page: number;
    pages: number;
    facets: { categories: { slug: string; count: number }[]; cities: { slug: string; count: number }[] };
  };
}

const api = async (params: string) => {
  const res = await browser().get(`/api/posts?${params}`);
  expect(res.status, params).toBe(200);
  return (await res.json()) as ApiResult;
};

describe('search', () => {
  it('finds an Arabic ad by a spelling with harakat and hamza variants, on the page and in the API', async () => {
    const word = `كورولا${stamp()
      .slice(-4)
      .replace(/\d/g, (d) => 'ابتثجحخدذر'[Number(d)] as string)}`;
    const seller = await member('search');
    const ad = await placeToyota(seller, `تويوتا ${word} سيارة نظيفة`);
    publish(ad.id);
    const variant = `تُويُوتَا ${word} سياره`;
    const found = await api(`q=${encodeURIComponent(variant)}`);
    expect(found.data.map((a) => a.id)).toEqual([ad.id]);
    expect(found.meta.total).toBe(1);
    const page = await (await browser().get(`/en/posts?q=${encodeURIComponent(variant)}`)).text();
    expect(page).toContain(ad.url);
    expect(page).toContain('1 ad');
  });

  it('narrows the count by price and attribute filters', async () => {
    const seller = await member('filters');
    const tag = `Filterable${stamp()}`;
    const cheap = await placeToyota(seller, `${tag} cheap corolla`, { price: '20000', 'attrs.year': '2012' });
    const dear = await placeToyota(seller, `${tag} dear corolla`, { price: '90000', 'attrs.year': '2020' });
    publish(cheap.id);
    publish(dear.id);
    const q = `q=${tag}&category=cars`;
    expect((await api(q)).meta.total).toBe(2);
    expect((await api(`${q}&price_max=50000`)).data.map((a) => a.id)).toEqual([cheap.id]);
    expect((await api(`${q}&f.year.min=2018`)).data.map((a) => a.id)).toEqual([dear.id]);
    expect((await api(`${q}&f.year.min=2018&price_max=50000`)).meta.total).toBe(0);
    // The category page shows the same filters' result.
    const html = await (await browser().get(`/en/motors/cars?q=${tag}&price_max=50000`)).text();
    expect(html).toContain(cheap.url);
    expect(html).not.toContain(dear.url);
  });

  it('moves to the canonical URL, dropping what it does not know instead of failing', async () => {
    const messy = await browser().get('/en/posts?city=atlantis&price_min=&q=&sort=bogus&f.nothing=1&category=cars');
    expect(messy.status).toBe(302);
    expect(messy.headers.get('location')).toBe('/en/posts?category=cars');
    const ordered = await browser().get('/en/posts?city=tripoli&category=cars');
    expect(ordered.status).toBe(302);
    expect(ordered.headers.get('location')).toBe('/en/posts?category=cars&city=tripoli');
    const clean = await browser().get('/en/posts?category=cars&city=tripoli');
    expect(clean.status).toBe(200);
    const api404 = await browser().get('/api/posts?page=51');
    expect(api404.status).toBe(404);
    // Page 1 written out is page 1 in the API (a client counting from 1 need not leave it out).
    const first = await api('category=cars&page=1');
    expect(first.meta.page).toBe(1);
    expect(first.data.map((ad) => ad.id)).toEqual((await api('category=cars')).data.map((ad) => ad.id));
    expect((await browser().get('/api/posts?page=0')).status).toBe(404);
    expect((await browser().get('/en/posts?page=51')).status).toBe(404);
    expect((await browser().get('/en/posts?page=0')).status).toBe(404);
    expect((await browser().get('/posts?page=1')).status).toBe(301);
  });

  it('counts facets by taxonomy and city, and marks filtered listings noindex', async () => {
    const all = await api('');
    expect(all.meta.facets.categories.some((f) => f.slug === 'motors')).toBe(true);
    expect(all.meta.total).toBeGreaterThan(0);
    const filtered = await (await browser().get('/en/posts?city=tripoli')).text();
    expect(filtered).toContain('name="robots" content="noindex"');
    const plain = await (await browser().get('/en/posts')).text();
    expect(plain).not.toContain('content="noindex"');
  });

  it('saves a search for a member, once, and asks visitors to sign in', async () => {
    const visitor = await browser().post('/en/posts?category=cars', { intent: 'save-search' });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toContain('/en/login?redirect=');
    const b = await member('saver');
    const saved = await b.post('/en/posts?category=cars&city=tripoli', { intent: 'save-search' });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe('/en/posts?category=cars&city=tripoli');
    await b.post('/en/posts?category=cars&city=tripoli', { intent: 'save-search' });
    const rows = sql<{ query: string; name: string }>(
      "select query, name from saved_searches where user_id = (select id from users where email like 'saver-%' order by created_at desc limit 1)",
    );
    expect(rows).toEqual([{ query: 'category=cars&city=tripoli', name: 'Cars · Tripoli' }]);
    // The listing says so once, as a flash (the next page's status region).
    expect(await (await b.get('/en/posts?category=cars&city=tripoli')).text()).toContain('Search saved.');
    expect(await (await b.get('/en/posts?category=cars&city=tripoli')).text()).not.toContain('Search saved.');
  });
});
