// /sitemap.xml over real HTTP (docs/product/site.md): the index and its children, each well-formed and shaped
// as the sitemap schema says; published ads with both languages and their last change, and nothing
// that is not public; robots.txt points at it.
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type adRef, member, placeToyota, publish } from '../support/ads.ts';
import { serverSql as sql } from '../support/server-db.ts';
import { checkSitemapIndex, checkUrlset, type SitemapUrl } from '../support/sitemap-xml.ts';

const base = inject('baseUrl');
const get = (path: string, init: RequestInit = {}) => fetch(base + path, { redirect: 'manual', ...init });
const xml = async (path: string) => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  return res.text();
};
const adLoc = (ad: { id: number; slug: string }, prefix = '') =>
  `${base}${prefix}/motors/toyota/${encodeURIComponent(ad.slug)}-${ad.id}`;

describe('the sitemap', () => {
  let published: ReturnType<typeof adRef>;
  let arabic: ReturnType<typeof adRef>;
  let pending: ReturnType<typeof adRef>;
  let deleted: ReturnType<typeof adRef>;
  let draft: number;
  let chunk: string;

  beforeAll(async () => {
    const b = await member('sitemap');
    published = await placeToyota(b, 'Sitemap Corolla 2015 clean');
    publish(published.id);
    arabic = await placeToyota(b, 'تويوتا كورولا نظيفة & "ممتازة"');
    publish(arabic.id);
    pending = await placeToyota(b, 'Sitemap pending Corolla');
    deleted = await placeToyota(b, 'Sitemap deleted Corolla');
    publish(deleted.id);
    sql(
      "update ads set status = 'deleted', deleted_at = ? where id = ? returning id",
      new Date().toISOString(),
      deleted.id,
    );
    draft = (await placeToyota(b, 'Sitemap draft Corolla')).id;
    sql("update ads set status = 'draft' where id = ? returning id", draft);
    chunk = `/sitemaps/ads-${Math.floor(published.id / 10_000) + 1}.xml`;
  });

  it('is an index of the pages, the catalogue, the companies (once there is one) and the ad chunks', async () => {
    const index = checkSitemapIndex(await xml('/sitemap.xml'));
    const locs = index.sitemaps.map((s) => s.loc);
    expect(locs.slice(0, 2)).toEqual([`${base}/sitemaps/pages.xml`, `${base}/sitemaps/catalog.xml`]);
    expect(locs).toContain(base + chunk);
    const companies = sql<{ n: number }>('select count(*) as n from companies')[0]?.n ?? 0;
    const rest = locs.slice(2);
    if (companies > 0) expect(rest.shift()).toBe(`${base}/sitemaps/companies.xml`);
    for (const loc of rest) expect(loc).toMatch(/\/sitemaps\/ads-[1-9]\d*\.xml$/);
    for (const s of index.sitemaps) expect(s.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // Every child it lists answers with a urlset.
    for (const loc of locs) expect(checkUrlset(await xml(loc.slice(base.length))).length).toBeGreaterThan(0);
  });

  it('lists published ads with both languages and their last change, nothing else', async () => {
    const urls = checkUrlset(await xml(chunk));
    expect(urls.length).toBeLessThanOrEqual(50_000);
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    const ad = byLoc.get(adLoc(published)) as SitemapUrl;
    expect(ad).toBeDefined();
    expect(ad.alternates).toEqual({
      ar: adLoc(published),
      en: adLoc(published, '/en'),
      'x-default': adLoc(published),
    });
    const [{ last }] = sql<{ last: string }>(
      'select max(updated_at, bumped_at) as last from ads where id = ?',
      published.id,
    );
    expect(ad.lastmod).toBe(last.replace(/\.\d{3}Z$/, 'Z'));
    // An Arabic slug is percent-encoded in every link.
    expect(arabic.slug).toMatch(/^تويوتا-كورولا-نظيفة-ممتازة$/);
    expect(byLoc.get(adLoc(arabic))?.alternates.en).toBe(adLoc(arabic, '/en'));
    for (const hidden of [pending, deleted]) expect(byLoc.has(adLoc(hidden))).toBe(false);
    expect(urls.some((u) => u.loc.endsWith(`-${draft}`))).toBe(false);
    // Ids only grow within a chunk: keyset order.
    const ids = urls.map((u) => Number(/-(\d+)$/.exec(u.loc)?.[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Each listed page answers 200 in both languages.
    for (const loc of [adLoc(published), adLoc(published, '/en')]) {
      expect((await get(loc.slice(base.length))).status, loc).toBe(200);
    }
  });

  it('drops an ad once it is no longer published', async () => {
    const b = await member('sitemap-sold');
    const ad = await placeToyota(b, 'Sitemap sold Corolla');
    publish(ad.id);
    expect(await xml(chunk)).toContain(adLoc(ad));
    sql("update ads set status = 'sold' where id = ? returning id", ad.id);
    expect(await xml(chunk)).not.toContain(adLoc(ad));
  });

  it('lists the public pages and the catalogue in Arabic with English alternates', async () => {
    const pages = checkUrlset(await xml('/sitemaps/pages.xml'));
    expect(pages.map((u) => u.loc)).toEqual(
      ['/', '/posts', '/faq', '/about', '/terms', '/privacy', '/support', '/contact'].map((p) => base + p),
    );
    expect(pages[0].alternates).toEqual({ ar: `${base}/`, en: `${base}/en`, 'x-default': `${base}/` });
    expect(pages[2].alternates.en).toBe(`${base}/en/faq`);
    // Every page listed answers in both languages.
    for (const url of pages) {
      for (const loc of [url.loc, url.alternates.en]) expect((await get(loc.slice(base.length))).status, loc).toBe(200);
    }
    const catalog = checkUrlset(await xml('/sitemaps/catalog.xml'));
    const locs = catalog.map((u) => u.loc);
    expect(locs).toContain(`${base}/motors`);
    expect(locs).toContain(`${base}/motors/cars`);
    expect(locs).toContain(`${base}/motors/toyota`);
    expect(catalog.find((u) => u.loc === `${base}/motors/toyota`)?.alternates.en).toBe(`${base}/en/motors/toyota`);
    for (const url of catalog.slice(0, 12)) {
      for (const loc of [url.loc, url.alternates.en]) expect((await get(loc.slice(base.length))).status, loc).toBe(200);
    }
  });

  it('answers 404 for an ad chunk without published ads', async () => {
    expect((await get('/sitemaps/ads-99999.xml')).status).toBe(404);
    expect((await get('/sitemaps/ads-0.xml')).status).toBe(404);
    expect((await get('/sitemaps/ads-x.xml')).status).toBe(404);
  });

  it('is compressed for clients that accept it, and answers HEAD without a body', async () => {
    const res = await get(chunk, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decompresses; the body is the whole document.
    expect(checkUrlset(await res.text()).length).toBeGreaterThan(0);
    const raw = await import('node:http').then(
      (http) =>
        new Promise<Buffer>((resolve, reject) => {
          http
            .get(base + chunk, { headers: { 'accept-encoding': 'gzip' } }, (r) => {
              const parts: Buffer[] = [];
              r.on('data', (d) => parts.push(d));
              r.on('end', () => resolve(Buffer.concat(parts)));
            })
            .on('error', reject);
        }),
    );
    expect(gunzipSync(raw).toString('utf8')).toMatch(/<\/urlset>\n$/);
    const head = await get('/sitemap.xml', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await head.text()).toBe('');
  });

  it('is named in robots.txt', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain(`\nSitemap: ${base}/sitemap.xml\n`);
  });
});
