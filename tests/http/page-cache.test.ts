// The in-memory page cache for anonymous visitors (ADR 0007), on a
// server of its own with the cache on: shareable pages come from memory with a fresh CSP nonce,
// views still count, members never get a shared copy, and a committed change of an ad drops the
// pages that show it.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';
import { type Browser, browser } from '../support/http-browser.ts';

let server: RunningTestServer;
const sql = <T>(query: string, ...args: (string | number)[]) => {
  const db = new DatabaseSync(path.join(server.dataDir, 'souq.db'), { timeout: 5000 });
  try {
    return db.prepare(query).all(...args) as T[];
  } finally {
    db.close();
  }
};
let n = 0;
const visitor = () => browser(`10.9.0.${++n}`, server.url);

async function signIn(email: string): Promise<Browser> {
  const b = visitor();
  const res = await b.post('/en/login', { login: email, password: 'password123' });
  expect(res.status).toBe(302);
  return b;
}

beforeAll(async () => {
  server = await startBuiltServer({
    SEED_DEMO: 'true',
    SEED_DEMO_ADS: 'false',
    TRUST_PROXY: '1',
    PAGE_CACHE_SECONDS: '60',
  });
});
afterAll(() => server?.stop());

/** A published Toyota of the demo member, placed and approved through the pages. */
async function publishedAd(title: string) {
  const owner = await signIn('user@souq.test');
  const city = sql<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id as number;
  const placed = await owner.post('/en/place-your-ad/motors/cars/toyota', {
    title,
    description: 'Clean car, one owner, full service history in Tripoli.',
    price_type: 'fixed',
    price: '45000',
    currency: 'LYD',
    city: String(city),
    'attrs.year': '2015',
    'attrs.model': 'corolla',
    contact_phone: 'on',
    submission_key: `k-${Math.random()}`,
  });
  const id = Number(/placed=(\d+)/.exec(placed.headers.get('location') ?? '')?.[1]);
  const moderator = await signIn('moderator@souq.test');
  expect((await moderator.post('/en/admin/posts', { intent: `approve:${id}` })).status).toBeLessThan(400);
  const slug = sql<{ slug: string }>('select slug from ads where id = ?', id)[0]?.slug;
  return { id, owner, url: `/en/motors/toyota/${slug}-${id}` };
}

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

describe('the page cache', () => {
  it('serves an anonymous ad page from memory with a fresh nonce, still counting views', async () => {
    const ad = await publishedAd('Toyota Corolla 2015 cached');
    const first = await visitor().get(ad.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-page-cache')).toBeNull();
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=300');
    expect(first.headers.get('vary')).toMatch(/Cookie/);
    expect(first.headers.get('x-souq-cache-tags')).toBeNull();
    await first.text();
    const second = await visitor().get(ad.url);
    expect(second.headers.get('x-page-cache')).toBe('hit');
    expect(second.headers.get('vary')).toMatch(/Cookie/);
    const html = await second.text();
    expect(html).toContain('Toyota Corolla 2015 cached');
    const nonce = nonceOf(second);
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceOf(first));
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain(`nonce="${nonceOf(first)}"`);
    // Two visitors, two views, although only the first page was rendered.
    expect(sql<{ views: number }>('select views from ads where id = ?', ad.id)[0]?.views).toBe(2);
    // A bot's visit is served but not counted.
    await fetch(server.url + ad.url, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    expect(sql<{ views: number }>('select views from ads where id = ?', ad.id)[0]?.views).toBe(2);
  });

  it('never shares a member’s page', async () => {
    const ad = await publishedAd('Toyota Corolla 2015 private view');
    await (await visitor().get(ad.url)).text();
    const member = await signIn('admin@souq.test');
    const res = await member.get(ad.url);
    expect(res.headers.get('x-page-cache')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(await res.text()).toContain('Report this ad');
  });

  it('drops the ad page, its category listings and the home page when the ad changes', async () => {
    const ad = await publishedAd('Toyota Corolla 2015 soon sold');
    await (await visitor().get(ad.url)).text();
    await (await visitor().get('/en/motors/cars')).text();
    await (await visitor().get('/en')).text();
    expect((await visitor().get(ad.url)).headers.get('x-page-cache')).toBe('hit');
    expect((await visitor().get('/en')).headers.get('x-page-cache')).toBe('hit');
    const listing = await visitor().get('/en/motors/cars');
    expect(listing.headers.get('x-page-cache')).toBe('hit');
    expect(await listing.text()).toContain('Toyota Corolla 2015 soon sold');

    expect((await ad.owner.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold' })).status).toBe(302);
    const page = await visitor().get(ad.url);
    expect(page.headers.get('x-page-cache')).toBeNull();
    expect(await page.text()).toContain('The seller has marked this item as sold.');
    const after = await visitor().get('/en/motors/cars');
    expect(after.headers.get('x-page-cache')).toBeNull();
    expect(await after.text()).not.toContain('Toyota Corolla 2015 soon sold');
    // The home page shows every section's counts: any ad change renews it.
    expect((await visitor().get('/en')).headers.get('x-page-cache')).toBeNull();
    // Information pages are shared too.
    await (await visitor().get('/en/faq')).text();
    expect((await visitor().get('/en/faq')).headers.get('x-page-cache')).toBe('hit');
  });
});
