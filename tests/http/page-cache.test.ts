// The in-memory page cache for anonymous visitors (ADR 0007), on a
// server of its own with the cache on: shareable pages come from memory with a fresh CSP nonce,
// views still count, members never get a shared copy, and a committed change of an ad drops the
// pages that show it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { rawGet } from '../support/raw-http.ts';

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

/**
 * The CSP of a cached page allows exactly its inline scripts, by SHA-256 hash: every inline script
 * of the HTML has its hash in script-src, every hash there has its script, and nothing else is
 * allowed inline (no nonce, no 'unsafe-inline'); the other directives are those of a render.
 */
function expectScriptsAllowedByHash(csp: string, html: string) {
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1]?.trim().split(/\s+/) ?? [];
  expect(scriptSrc[0]).toBe("'self'");
  const allowed = scriptSrc.slice(1);
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1] as string)
    .filter(Boolean);
  expect(inline.length).toBeGreaterThan(1);
  const hashes = new Set(inline.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`));
  expect(new Set(allowed)).toEqual(hashes);
  for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"]) {
    expect(csp).toContain(directive);
  }
}

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

describe('the page cache', () => {
  it('serves an anonymous ad page from memory, its inline scripts allowed by hash, still counting views', async () => {
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
    // The cached copy's inline scripts are allowed by their hashes, not by a nonce (ADR 0011).
    expect(nonceOf(first)).toBeTruthy();
    expect(nonceOf(second)).toBeUndefined();
    expect(html).not.toContain('nonce="');
    expectScriptsAllowedByHash(second.headers.get('content-security-policy') ?? '', html);
    // Two visitors, two views, although only the first page was rendered.
    expect(sql<{ views: number }>('select views from ads where id = ?', ad.id)[0]?.views).toBe(2);
    // A bot's visit is served but not counted.
    await fetch(server.url + ad.url, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    expect(sql<{ views: number }>('select views from ads where id = ?', ad.id)[0]?.views).toBe(2);
  });

  it('compresses a cached page once: every hit sends the same stored brotli, gzip or plain bytes', async () => {
    const ad = await publishedAd('Toyota Corolla 2015 compressed once');
    const url = server.url + ad.url;
    const ua = { 'user-agent': BROWSER_UA };
    await (await visitor().get(ad.url)).text();
    // The forms are made off the request path just after the render: the ETag says they are there.
    let br = await rawGet(url, { ...ua, 'accept-encoding': 'gzip, deflate, br, zstd' });
    for (let i = 0; i < 50 && !br.headers.etag; i++) {
      await new Promise((r) => setTimeout(r, 50));
      br = await rawGet(url, { ...ua, 'accept-encoding': 'gzip, deflate, br, zstd' });
    }
    expect(br.status).toBe(200);
    expect(br.headers['x-page-cache']).toBe('hit');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.headers.vary).toMatch(/Cookie/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers.etag).toMatch(/-br"$/);
    const again = await rawGet(url, { ...ua, 'accept-encoding': 'br' });
    expect(again.body.equals(br.body)).toBe(true);
    const html = brotliDecompressSync(br.body).toString('utf8');
    expect(html).toContain('Toyota Corolla 2015 compressed once');
    expectScriptsAllowedByHash(String(br.headers['content-security-policy']), html);

    const gz = await rawGet(url, { ...ua, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-length']).toBe(String(gz.body.length));
    expect(gunzipSync(gz.body).toString('utf8')).toBe(html);
    const plain = await rawGet(url, ua);
    expect(plain.headers['x-page-cache']).toBe('hit');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(html);
    expect(br.body.length).toBeLessThan(gz.body.length);
    expect(gz.body.length).toBeLessThan(plain.body.length);

    // Revalidation of the form held, and HEAD.
    const etag = br.headers.etag as string;
    expect((await rawGet(url, { ...ua, 'accept-encoding': 'br', 'if-none-match': etag })).status).toBe(304);
    const head = await rawGet(url, { ...ua, 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);
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

  it('keeps no member’s hearts in a shared page: a member’s saved ad is theirs alone', async () => {
    const ad = await publishedAd('Toyota Corolla 2015 saved privately');
    const pressed = (html: string) => /aria-pressed="true"/.test(html);
    // A visitor's copy is stored, with an empty heart.
    await (await visitor().get('/en/motors/cars')).text();
    const cached = await visitor().get('/en/motors/cars');
    expect(cached.headers.get('x-page-cache')).toBe('hit');
    const shared = await cached.text();
    expect(shared).toContain('Toyota Corolla 2015 saved privately');
    expect(pressed(shared)).toBe(false);
    // A member saves it (the heart's form): their pages show it saved, rendered for them only.
    const member = await signIn('moderator@souq.test');
    const saved = await member.post('/en/favorites', { intent: 'add', ad: String(ad.id), back: '/en/motors/cars' });
    expect(saved.status).toBe(302);
    await (await member.get('/en/motors/cars')).text(); // reads the flash message
    const mine = await member.get('/en/motors/cars');
    expect(mine.headers.get('x-page-cache')).toBeNull();
    expect(pressed(await mine.text())).toBe(true);
    // Visitors still get the shared copy, without the member's heart (saving changes no shared page).
    const again = await visitor().get('/en/motors/cars');
    expect(again.headers.get('x-page-cache')).toBe('hit');
    expect(pressed(await again.text())).toBe(false);
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

    expect(
      (await ad.owner.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold', confirmed: '1' })).status,
    ).toBe(302);
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

  it('never serves, nor keeps, a page with someone’s flash message', async () => {
    await (await visitor().get('/en/about')).text();
    expect((await visitor().get('/en/about')).headers.get('x-page-cache')).toBe('hit');
    // Signed out just now: the message is theirs, rendered afresh and kept by no cache.
    const member = await signIn('user@souq.test');
    const out = await member.post('/en/logout', {});
    expect(out.status).toBe(302);
    const flashed = await member.get('/en/about');
    expect(flashed.headers.get('x-page-cache')).toBeNull();
    expect(flashed.headers.get('cache-control')).toBe('private, no-store');
    expect(await flashed.text()).toContain('You are logged out.');
    // The next visitors get the shared copy, without it.
    const shared = await visitor().get('/en/about');
    expect(shared.headers.get('x-page-cache')).toBe('hit');
    expect(await shared.text()).not.toContain('You are logged out.');
    // A fresh render for a visitor with a flash is not stored either.
    const forced = visitor();
    forced.jar.set('souq.flash', 'signed-out');
    const fresh = await fetch(`${server.url}/en/privacy`, {
      headers: { 'user-agent': BROWSER_UA, cookie: forced.cookieHeader(), 'cache-control': 'no-cache' },
    });
    expect(await fresh.text()).toContain('You are logged out.');
    const after = await visitor().get('/en/privacy');
    expect(after.headers.get('x-page-cache')).toBeNull();
    expect(await after.text()).not.toContain('You are logged out.');
  });
});
