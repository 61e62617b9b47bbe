// The built server over real HTTP: locale routing, errors, headers, pages.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';

const base = inject('baseUrl');
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const get = (path: string, init: RequestInit = {}) =>
  fetch(base + path, {
    redirect: 'manual',
    ...init,
    headers: { 'user-agent': BROWSER, ...(init.headers as Record<string, string>) },
  });
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('pages in two languages', () => {
  it('serves the Arabic home page right-to-left with its metadata', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html[^>]*lang="ar-LY"[^>]*dir="rtl"/);
    expect(html).toContain('<title>الرئيسية | سوق — إعلانات مبوبة في ليبيا</title>');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/"/);
    expect(html).toMatch(/hrefLang="en" href="http:\/\/127\.0\.0\.1:\d+\/en"/i);
    expect(html).toContain('content="summary_large_image"');
    expect(html).toMatch(/property="og:image" content="[^"]+\/images\/logo-only\.png"/);
    expect(html).toContain('سيارات');
  });

  it('serves English under /en left-to-right', async () => {
    const html = await (await get('/en')).text();
    expect(html).toMatch(/<html[^>]*lang="en-US"[^>]*dir="ltr"/);
    expect(html).toContain('<title>Home | Souq — Classifieds in Libya</title>');
    expect(html).toContain('Motors');
  });

  it('preloads the fonts a page draws its first screen with: Arabic pages two, English pages three', async () => {
    const fonts = async (path: string) =>
      [
        ...(await (await get(path)).text()).matchAll(
          /<link rel="preload" as="font"[^>]* href="\/assets\/([a-z-]+)-[\w-]{8}\.woff2"/g,
        ),
      ]
        .map((m) => m[1])
        .sort();
    expect(await fonts('/posts')).toEqual(['inter-digits-punctuation', 'noto-sans-arabic']);
    // An English page writes Arabic too (the language switch's "العربية"): found only once the
    // stylesheet was laid out, the Arabic font came a round trip late and held the first paint back.
    expect(await fonts('/en/posts')).toEqual(['inter-digits-punctuation', 'inter-latin', 'noto-sans-arabic']);
  });

  it('redirects / to /en when the locale cookie says English', async () => {
    const res = await get('/?utm=x', { headers: { cookie: 'locale=en' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en?utm=x');
    expect((await get('/', { headers: { cookie: 'locale=ar' } })).status).toBe(200);
  });

  it('moves /ar/… to the unprefixed path', async () => {
    const res = await get('/ar/faq?x=1');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/faq?x=1');
  });

  it('switches language on the same page and remembers it for 365 days', async () => {
    const res = await get(`/locale/en?redirect=${encodeURIComponent('/motors/cars?page=2')}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/en/motors/cars?page=2');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^locale=en;/);
    expect(cookie).toContain('Max-Age=31536000');
    const back = await get(`/locale/ar?redirect=${encodeURIComponent('/en/contact')}`);
    expect(back.headers.get('location')).toBe('/contact');
  });

  it('never redirects the language switch off the site', async () => {
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const res = await get(`/locale/en?redirect=${encodeURIComponent(target)}`);
      expect(res.headers.get('location')).toBe('/en');
    }
  });

  it('renders the information pages from Markdown in each language', async () => {
    for (const page of ['faq', 'about', 'terms', 'privacy', 'support']) {
      const ar = await get(`/${page}`);
      const en = await get(`/en/${page}`);
      expect(ar.status, page).toBe(200);
      expect(en.status, page).toBe(200);
      expect(await ar.text()).toMatch(/<h2 id="[^"]+">[^<]*[\u0600-\u06ff]/);
      expect(await en.text()).toMatch(/<h2 id="[^"]+">[A-Z]/);
    }
  });

  it('shows a category with breadcrumbs and its subcategories', async () => {
    const res = await get('/en/motors/cars');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Toyota');
    expect(html).toContain('"@type":"BreadcrumbList"');
    expect(html).toContain('href="/en/motors/toyota"');
  });

  it('moves a category under the wrong taxonomy to its canonical URL', async () => {
    const res = await get('/en/property/toyota');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/en/motors/toyota');
  });
});

describe('errors', () => {
  it('answers unknown paths with 404 "Page not found: {path}" and the error page', async () => {
    const res = await get('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.statusText).toBe('Page not found: /no/such/page');
    const html = await res.text();
    expect(html).toContain('الصفحة غير موجودة');
    const en = await get('/en/nothing-here/at-all/x');
    expect(en.status).toBe(404);
    expect(await en.text()).toContain('Page Not Found');
  });

  it('404s unknown taxonomies, categories and malformed slugs', async () => {
    expect((await get('/no-such-taxonomy')).status).toBe(404);
    expect((await get('/motors/no-such-category')).status).toBe(404);
    expect((await get('/motors/BAD_slug!')).status).toBe(404);
  });

  it('gives crawlers the status with a minimal body', async () => {
    const res = await get('/no/such/page', { headers: { 'user-agent': BOT } });
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toBe('404 Page Not Found\n');
  });
});

describe('operations', () => {
  it('answers health and readiness', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await get('/readyz')).json()).toMatchObject({ status: 'ready', database: 'sqlite' });
  });

  it('sends security headers with a CSP nonce that the inline scripts carry', async () => {
    const res = await get('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const html = await res.text();
    const scripts = html.match(/<script(?![^>]*type="application\/ld\+json")[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect((await get('/')).headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('compresses with brotli and gzip', async () => {
    const br = await get('/en', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const gz = await get('/en', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  it('serves hashed assets as immutable and the favicon and robots.txt', async () => {
    const html = await (await get('/')).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const res = await get(asset as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await get('/favicon.ico')).status).toBe(200);
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain('User-agent: *');
    expect(robots).toContain('Disallow: /admin');
  });

  it('publishes the build id for version checks', async () => {
    const res = await get(`/builds/latest.json?t=${Date.now()}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body.id).toMatch(/\w+/);
    expect(Number.isNaN(Date.parse(body.time))).toBe(false);
    const html = await (await get('/')).text();
    expect(html).toMatch(new RegExp(`"version":\\s*"${body.id}"`));
  });

  it('keeps the home page within its size budgets (HTML ≤ 60 KB, first-load JS ≤ 200 KB gzipped)', async () => {
    // fetch() decompresses, so sizes are measured by gzipping what the server sent (level 6, as served).
    const html = await (await get('/')).text();
    expect(gzipSync(html).length).toBeLessThanOrEqual(60 * 1024);
    // The scripts hydration fetches once the page has loaded (docs/decisions/0013-hydrate-after-load.md).
    const preloads = JSON.parse(/for \(const href of (\[[^\]]*\])\)/.exec(html)?.[1] ?? '[]') as string[];
    const imported = [...html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)].map((m) => m[1] as string);
    const scripts = new Set([...preloads, ...imported]);
    let total = 0;
    for (const src of scripts) total += gzipSync(Buffer.from(await (await get(src)).arrayBuffer())).length;
    expect(scripts.size).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(200 * 1024);
  });

  it('ships no server code to browsers (database, image processing, Node built-ins)', () => {
    // A route component that imports from server/ by mistake drags that code into its chunk: Node
    // imports stay as imports, bundled packages leave their names and signatures.
    const dir = path.resolve('build/client/assets');
    const signs = [/from\s*"node:[a-z/]+"/, /libvips/, /\bKysely\b/, /better-auth/, /nodemailer/, /pino\b.*level/];
    const leaks = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .filter((f) => signs.some((sign) => sign.test(readFileSync(path.join(dir, f), 'utf8'))));
    expect(leaks).toEqual([]);
  });
});
