// Favorites over real HTTP (docs/product/favorites.md, docs/api.md): the heart's plain form on every
// list of cards and on the ad page (back to the page with a message; visitors to log in and back),
// /favorites with what changed since an ad was saved, the owner's count, the header's link, the
// notifications' words, and the API. Every guard on the server: visitors 401 or to log in, ads
// nobody may see 404, sold ones 422 with the reason, bad ids and forms 4xx, never a 5xx.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { adRef, adStatus, member, type PlacedTestAd, placeToyota, publish, toyotaForm } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const base = inject('baseUrl');
const RUN = Date.now().toString(36);
const TOKEN = 'favorites-xsrf-token';

const countOf = (id: number) =>
  Number(sql<{ n: number }>('select favorites_count n from ads where id = ?', id)[0]?.n ?? -1);
const rowsOf = (id: number) => Number(sql<{ n: number }>('select count(*) n from favorites where ad_id = ?', id)[0]?.n);
/** The heart of an ad in a page's HTML: its form's intent and its button's pressed state and name. */
function heart(html: string, adId: number): { intent: string; pressed: string; label: string } | null {
  const at = html.indexOf(`name="ad" value="${adId}"`);
  if (at === -1) return null;
  const form = html.slice(html.lastIndexOf('<form', at), html.indexOf('</form>', at));
  return {
    intent: /name="intent" value="(\w+)"/.exec(form)?.[1] ?? '',
    pressed: /aria-pressed="(\w+)"/.exec(form)?.[1] ?? '',
    label: /aria-label="([^"]+)"/.exec(form)?.[1] ?? '',
  };
}
const flashOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('souq.flash='))
    ?.split(';')[0];

/** An API call with the anti-forgery cookie and header (unless `xsrf: false`). */
function api(b: Browser, method: string, path: string, body?: unknown, opts: { xsrf?: boolean; raw?: string } = {}) {
  const headers: Record<string, string> = {
    cookie: [b.cookieHeader(), opts.xsrf === false ? '' : `XSRF-TOKEN=${TOKEN}`].filter(Boolean).join('; '),
    'x-forwarded-for': b.ip,
    'x-locale': 'en',
    accept: 'application/json',
  };
  if (opts.xsrf !== false) headers['x-xsrf-token'] = TOKEN;
  if (body !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
  return fetch(base + path, {
    method,
    headers,
    redirect: 'manual',
    body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}

let fan: Browser;
let ad: PlacedTestAd & { owner: Browser };

/** Sellers in turn: each may have 5 ads pending or published at once. */
let seller: Browser | null = null;
let placed = 0;
async function nextSeller(): Promise<Browser> {
  if (!seller || placed % 4 === 0) seller = await member('fav-seller');
  placed++;
  return seller;
}

/** A published Toyota ad (of one of the sellers, `owner`) with a fresh title. */
async function liveAd(name: string, over: Record<string, string> = {}) {
  const owner = await nextSeller();
  const placedAd = await placeToyota(owner, `Toyota Corolla ${name} ${RUN}`, over);
  publish(placedAd.id);
  return { ...adRef(placedAd.id), owner };
}

/** An ad waiting for review. */
async function waitingAd(name: string) {
  return placeToyota(await nextSeller(), `Toyota Corolla ${name} ${RUN}`);
}

beforeAll(async () => {
  fan = await member('fav-fan', { phone: false });
  ad = await liveAd('hearted');
});

describe('the heart without JavaScript', () => {
  it('saves from a listing and comes back to it with a message; the member’s pages show it saved', async () => {
    const listing = `/en/posts?q=${encodeURIComponent(`hearted ${RUN}`)}`;
    const page = await fan.get(listing);
    expect(page.status).toBe(200);
    // A member's page is never shared; its heart says what it will do.
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(heart(await page.text(), ad.id)).toEqual({ intent: 'add', pressed: 'false', label: 'Save to favorites' });

    const saved = await fan.post('/en/favorites', { intent: 'add', ad: String(ad.id), back: listing });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe(listing);
    expect(flashOf(saved)).toBe('souq.flash=favorite-added');
    expect(countOf(ad.id)).toBe(1);
    const after = await (await fan.get(listing)).text();
    expect(after).toContain('Saved to your favorites.');
    expect(heart(after, ad.id)).toEqual({ intent: 'remove', pressed: 'true', label: 'Remove from favorites' });
    // The same on the ad page, the home page and the member page, in Arabic too.
    expect(heart(await (await fan.get(ad.url)).text(), ad.id)?.pressed).toBe('true');
    const arabic = await (await fan.get(ad.url.replace(/^\/en/, ''))).text();
    expect(heart(arabic, ad.id)).toEqual({ intent: 'remove', pressed: 'true', label: 'أزل من المفضلة' });
    const sellerId = String((await ad.owner.whoami()).user?.id);
    expect(heart(await (await fan.get(`/en/users/${sellerId}`)).text(), ad.id)?.pressed).toBe('true');
    expect(heart(await (await fan.get('/en/motors/toyota')).text(), ad.id)?.pressed).toBe('true');

    // Saving again changes nothing.
    expect((await fan.post('/en/favorites', { intent: 'add', ad: String(ad.id), back: listing })).status).toBe(302);
    expect(countOf(ad.id)).toBe(1);
    expect(rowsOf(ad.id)).toBe(1);
  });

  it('is the same for every visitor of a shared page and sends a visitor to log in and back', async () => {
    const visitor = browser();
    const page = await visitor.get(ad.url);
    expect(page.headers.get('cache-control')).toContain('public');
    const html = await page.text();
    expect(heart(html, ad.id)).toEqual({ intent: 'add', pressed: 'false', label: 'Save to favorites' });
    // No member-specific state in a shared page: no favorites link, no pressed heart.
    expect(html).not.toContain('data-testid="favorites-link"');
    expect(html).not.toContain('aria-pressed="true"');

    const res = await visitor.post('/en/favorites', { intent: 'add', ad: String(ad.id), back: ad.url });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/login?redirect=${encodeURIComponent(ad.url)}`);
    // Only back to a page of this site.
    const away = await visitor.post('/favorites', { intent: 'add', ad: String(ad.id), back: '//evil.example/x' });
    expect(away.headers.get('location')).toBe(`/login?redirect=${encodeURIComponent('/favorites')}`);
    expect(countOf(ad.id)).toBe(1);
    expect((await visitor.get('/en/favorites')).headers.get('location')).toBe('/en/login?redirect=%2Fen%2Ffavorites');
  });

  it('refuses ads nobody may see (404), sold ones with the reason (422), bad forms (4xx), changing nothing', async () => {
    const waiting = await waitingAd('waiting');
    expect(adStatus(waiting.id)).toBe('pending');
    expect((await fan.post('/en/favorites', { intent: 'add', ad: String(waiting.id) })).status).toBe(404);
    expect((await fan.post('/en/favorites', { intent: 'add', ad: '999999999' })).status).toBe(404);
    expect(countOf(waiting.id)).toBe(0);

    const sold = await liveAd('sold before saved');
    sql("update ads set status = 'sold' where id = ? returning id", sold.id);
    const refused = await fan.post('/en/favorites', { intent: 'add', ad: String(sold.id) });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('This ad is no longer for sale, so it cannot be saved.');
    expect(countOf(sold.id)).toBe(0);

    for (const form of [
      { intent: 'add', ad: 'abc' },
      { intent: 'add', ad: '99999999999' },
      { intent: 'add', ad: '-1' },
      { intent: 'add' },
      { intent: 'bogus', ad: String(ad.id) },
      { ad: String(ad.id) },
    ]) {
      const res = await fan.post('/en/favorites', form as Record<string, string>);
      expect(res.status, JSON.stringify(form)).toBe(422);
      expect(await res.text()).toContain('The request is not valid.');
    }
    expect((await fan.get('/en/favorites?before=abc')).status).toBe(404);
    expect((await fan.get('/en/favorites?before=99999999999')).status).toBe(404);
    // A form from another site: 419, nothing saved.
    const other = await liveAd('foreign form');
    const foreign = await fan.post('/en/favorites', { intent: 'add', ad: String(other.id) }, 'https://evil.example');
    expect(foreign.status).toBe(419);
    expect(countOf(other.id)).toBe(0);
  });
});

describe('/favorites', () => {
  it('lists the member’s saved ads with what changed: old → new price, sold, removed; remove works', async () => {
    const b = await member('fav-list', { phone: false });
    const cheaper = await liveAd('cheaper', { price: '50000' });
    const gone = await liveAd('gone');
    const sold = await liveAd('sold later');
    for (const x of [cheaper, gone, sold]) {
      expect((await b.post('/en/favorites', { intent: 'add', ad: String(x.id) })).status).toBe(302);
    }
    sql('update ads set price = 42000 where id = ? returning id', cheaper.id);
    sql(
      "update ads set status = 'deleted', deleted_at = ? where id = ? returning id",
      new Date().toISOString(),
      gone.id,
    );
    sql("update ads set status = 'sold' where id = ? returning id", sold.id);

    const res = await b.get('/en/favorites');
    expect(res.status).toBe(200);
    // Private (no-store while it shows the last post's message).
    expect(res.headers.get('cache-control')).toMatch(/^private, no-(cache|store)$/);
    const html = await res.text();
    expect(html.split('data-testid="favorite"').length - 1).toBe(3);
    expect(html).toContain('Price dropped');
    expect(html).toMatch(/Price when saved:(<!-- -->)? <\/span><bdi>50,000 LYD<\/bdi>/);
    expect(html).toMatch(/Price now:(<!-- -->)? <\/span><bdi>42,000 LYD<\/bdi>/);
    expect(html).toContain('data-status="deleted"');
    expect(html).toContain('The seller removed this ad from the site.');
    expect(html).toContain('data-status="sold"');
    // A removed ad has no link; the others link to their pages.
    expect(html).toContain(`href="${sold.url}"`);
    expect(html).not.toContain(`href="${gone.url}"`);
    // Arabic, with the same prices in the page's words.
    const arabic = await (await b.get('/favorites')).text();
    expect(arabic).toContain('انخفض السعر');
    expect(arabic).toContain('أزال البائع هذا الإعلان من الموقع.');

    // Remove (a plain form, back to the list with a message), even of a removed ad.
    const removed = await b.post('/en/favorites', { intent: 'remove', ad: String(gone.id), back: '/en/favorites' });
    expect(removed.headers.get('location')).toBe('/en/favorites');
    expect(flashOf(removed)).toBe('souq.flash=favorite-removed');
    expect(await (await b.get('/en/favorites')).text()).toContain('Removed from your favorites.');
    expect(rowsOf(gone.id)).toBe(0);
    expect(countOf(gone.id)).toBe(0);
  });

  it('pages by keyset, 20 a page, and says when it is empty', async () => {
    const b = await member('fav-pages', { phone: false });
    expect(await (await b.get('/en/favorites')).text()).toContain('No favorites yet');
    const ids = sql<{ id: number }>("select id from ads where status = 'published' order by id desc limit 21").map(
      (r) => r.id,
    );
    expect(ids).toHaveLength(21);
    for (const id of ids) expect((await b.post('/en/favorites', { intent: 'add', ad: String(id) })).status).toBe(302);
    const first = await (await b.get('/en/favorites')).text();
    expect(first.split('data-testid="favorite"').length - 1).toBe(20);
    const older = /href="\/en\/favorites\?before=(\d+)"/.exec(first)?.[1];
    expect(older).toBeTruthy();
    const second = await (await b.get(`/en/favorites?before=${older}`)).text();
    expect(second.split('data-testid="favorite"').length - 1).toBe(1);
    // The first saved is the oldest: on the second page.
    expect(second).toContain(`name="ad" value="${ids[0]}"`);
    expect(second).toContain('Back to the latest');
  });
});

describe('what the seller and the header show', () => {
  it('shows the count to the ad’s owner only (ad page, my ads, the ad’s own page)', async () => {
    const counted = await liveAd('counted');
    for (const prefix of ['fav-count-a', 'fav-count-b']) {
      const b = await member(prefix, { phone: false });
      expect((await b.post('/en/favorites', { intent: 'add', ad: String(counted.id) })).status).toBe(302);
    }
    expect(countOf(counted.id)).toBe(2);
    const seller = counted.owner;
    const own = await (await seller.get(counted.url)).text();
    expect(own).toContain('Saved by 2 members');
    // The owner sees the count, not a heart.
    expect(heart(own, counted.id)).toBeNull();
    expect(await (await seller.get(counted.url.replace(/^\/en/, ''))).text()).toContain('حفظه عضوان في مفضلتيهما');
    expect(await (await seller.get(counted.own)).text()).toContain('2 favorites');
    expect(await (await seller.get('/en/profile/posts')).text()).toContain('2 favorites');
    // Nobody else does.
    expect(await (await fan.get(counted.url)).text()).not.toContain('Saved by');
    expect(await (await browser().get(counted.url)).text()).not.toContain('Saved by');
  });

  it('gives members a favorites link in the header, and visitors none', async () => {
    const html = await (await fan.get('/en')).text();
    expect(html).toMatch(
      /href="\/en\/favorites"[^>]*aria-label="Favorites"|aria-label="Favorites"[^>]*href="\/en\/favorites"/,
    );
    expect(await (await fan.get('/')).text()).toContain('aria-label="المفضلة"');
    expect(await (await browser().get('/en')).text()).not.toContain('data-testid="favorites-link"');
  });

  it('words the news of a saved ad on /notifications, linking to the ad’s page', async () => {
    const b = await member('fav-news', { phone: false });
    const dropped = await liveAd('dropping', { price: '45000' });
    expect((await b.post('/en/favorites', { intent: 'add', ad: String(dropped.id) })).status).toBe(302);
    // The seller lowers the price with the edit form: a drop needs no review, the fan is told at once.
    const seller = dropped.owner;
    const edited = await seller.post(
      `${dropped.own}/edit`,
      toyotaForm(`Toyota Corolla dropping ${RUN}`, { price: '40000' }),
    );
    expect(edited.status).toBe(302);
    const html = await (await b.get('/en/notifications')).text();
    expect(html).toContain('The price of an ad you saved dropped');
    expect(html).toContain('Now 40,000 LYD, was 45,000 LYD');
    expect(html).toContain(`href="${dropped.url}"`);
    const arabic = await (await b.get('/notifications')).text();
    expect(arabic).toContain('انخفض سعر إعلان حفظته');
    expect(arabic).toContain('الآن 40,000 د.ل، وكان 45,000 د.ل');
    // Marked sold: told too; the seller is told neither.
    expect(
      (await seller.post('/en/profile/posts', { id: String(dropped.id), intent: 'mark-sold', confirmed: '1' })).status,
    ).toBe(302);
    expect(await (await b.get('/en/notifications')).text()).toContain('An ad you saved was sold');
    expect(await (await seller.get('/en/notifications')).text()).not.toContain('An ad you saved');
  });
});

describe('the API', () => {
  it('saves, lists and removes for members; visitors get 401; writes need the anti-forgery token', async () => {
    const b = await member('fav-api', { phone: false });
    const target = await liveAd('api');
    const saved = await api(b, 'POST', '/api/favorites', { ad_id: target.id });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ data: { ad_id: target.id, favorited: true, added: true } });
    const again = await api(b, 'POST', '/api/favorites', { ad_id: String(target.id) });
    expect(await again.json()).toEqual({ data: { ad_id: target.id, favorited: true, added: false } });
    expect(countOf(target.id)).toBe(1);

    const list = await api(b, 'GET', '/api/favorites');
    expect(list.status).toBe(200);
    const body = (await list.json()) as { data: { ad: { id: number; title: string } }[]; meta: { next: null } };
    expect(body.data.map((f) => f.ad.id)).toEqual([target.id]);
    expect(body.meta).toEqual({ next: null, per_page: 20 });

    expect((await api(b, 'DELETE', `/api/favorites/${target.id}`)).status).toBe(204);
    expect((await api(b, 'DELETE', `/api/favorites/${target.id}`)).status).toBe(204);
    expect(countOf(target.id)).toBe(0);

    // Without the token: 419, nothing saved.
    expect((await api(b, 'POST', '/api/favorites', { ad_id: target.id }, { xsrf: false })).status).toBe(419);
    expect(countOf(target.id)).toBe(0);
    // Visitors.
    const visitor = browser();
    expect((await api(visitor, 'GET', '/api/favorites')).status).toBe(401);
    const post = await api(visitor, 'POST', '/api/favorites', { ad_id: target.id });
    expect(post.status).toBe(401);
    expect(await post.json()).toEqual({ message: expect.any(String) });
    expect((await api(visitor, 'DELETE', `/api/favorites/${target.id}`)).status).toBe(401);
  });

  it('answers bad input with 4xx and translated words, never a 5xx', async () => {
    const b = await member('fav-api-bad', { phone: false });
    const waiting = await waitingAd('api waiting');
    const sold = await liveAd('api sold');
    sql("update ads set status = 'sold' where id = ? returning id", sold.id);
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/favorites', {}, 422],
      ['POST', '/api/favorites', { ad_id: 'abc' }, 422],
      ['POST', '/api/favorites', { ad_id: -3 }, 422],
      ['POST', '/api/favorites', { ad_id: 1.5 }, 422],
      ['POST', '/api/favorites', { ad_id: 99999999999 }, 422],
      ['POST', '/api/favorites', { ad_id: [1] }, 422],
      ['POST', '/api/favorites', { ad_id: 999999999 }, 404],
      ['POST', '/api/favorites', { ad_id: waiting.id }, 404],
      ['POST', '/api/favorites', { ad_id: sold.id }, 422],
      ['DELETE', '/api/favorites/abc', undefined, 404],
      ['DELETE', '/api/favorites/0', undefined, 404],
      ['GET', '/api/favorites?before=abc', undefined, 404],
    ];
    for (const [method, path, payload, status] of cases) {
      const res = await api(b, method, path, payload);
      expect(res.status, `${method} ${path} ${JSON.stringify(payload)}`).toBe(status);
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
    }
    const refused = (await (await api(b, 'POST', '/api/favorites', { ad_id: sold.id })).json()) as {
      errors: Record<string, string[]>;
    };
    expect(refused.errors).toEqual({ ad: ['This ad is no longer for sale, so it cannot be saved.'] });
    const missing = (await (await api(b, 'POST', '/api/favorites', {})).json()) as { errors: Record<string, string[]> };
    expect(missing.errors.ad_id?.[0]).toMatch(/ad/);
    expect((await api(b, 'POST', '/api/favorites', undefined, { raw: '{"ad_id":' })).status).toBe(400);
    expect(countOf(sold.id)).toBe(0);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths['/favorites'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/favorites/{id}'] ?? {})).toEqual(['delete']);
  });
});
