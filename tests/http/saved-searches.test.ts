// /searches, the saved-search API, instant alerts and their mails, and email unsubscribe on the built
// server (docs/product/alerts.md): guards on every action and API call, bad input 4xx changing
// nothing, someone else's search 404; a matching ad approved by a moderator reaches the member as a
// notification and a mail in their language with RFC 8058 headers; unsubscribe tokens forged or
// expired are 4xx, a visit changes nothing, the one-click POST stops that kind of mail.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { unsubscribeToken } from '../../server/domain/notification-mail/unsubscribe.ts';
import { member, placeToyota } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';
import { readMails, waitForMail, waitForMails } from '../support/smtp-capture.ts';

const base = inject('baseUrl');
const mailDir = inject('mailDir');
const secret = () => readFileSync(path.join(inject('dataDir'), 'auth-secret'), 'utf8').trim();

async function signIn(login: string): Promise<Browser> {
  const b = browser();
  expect((await b.post('/en/login', { login, password: 'password123' })).status).toBe(302);
  return b;
}

const idOf = async (b: Browser) => String((await b.whoami()).user?.id);
const emailOf = (userId: string) =>
  sql<{ email: string }>('select email from users where id = ?', userId)[0]?.email as string;
const searchesOf = (userId: string) =>
  sql<{ id: number; name: string; query: string; frequency: string; last_seen_at: string | null }>(
    'select id, name, query, frequency, last_seen_at from saved_searches where user_id = ? order by id',
    userId,
  );

/** Saves the query of /posts through the listing's own form. */
async function save(b: Browser, query: string, prefix = '/en') {
  const res = await b.post(`${prefix}/posts?${query}`, { intent: 'save-search' });
  expect(res.status).toBe(302);
  // Back on the listing, which says so once (a flash).
  const back = await b.get(res.headers.get('location') as string);
  expect(await back.text()).toContain(prefix === '/en' ? 'Search saved.' : 'حُفظ البحث');
}

/** An API call with the anti-forgery cookie and header (or without the header: `xsrf: false`). */
async function api(b: Browser, method: string, route: string, body?: unknown, opts: { xsrf?: boolean } = {}) {
  if (!b.jar.has('XSRF-TOKEN')) await b.get('/api/csrf-cookie');
  const headers: Record<string, string> = {
    cookie: b.cookieHeader(),
    'x-locale': 'en',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  if (opts.xsrf !== false) headers['x-xsrf-token'] = b.jar.get('XSRF-TOKEN') ?? '';
  return fetch(base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

let moderator: Browser;
beforeAll(async () => {
  moderator = await signIn('moderator@souq.test');
});

describe('/searches', () => {
  it('lists the member’s searches in both languages; opening one counts its new ads from then', async () => {
    const watcher = await member('watcher', { phone: false });
    const id = await idOf(watcher);
    const empty = await (await watcher.get('/en/searches')).text();
    expect(empty).toContain('No saved searches yet');
    await save(watcher, 'category=toyota&city=tripoli');
    const [saved] = searchesOf(id);
    expect(saved).toMatchObject({ query: 'category=toyota&city=tripoli', frequency: 'daily' });

    const seller = await member('seller');
    const ad = await placeToyota(seller, 'Toyota Corolla for a saved search');
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${ad.id}` })).status).toBeLessThan(400);
    const page = await watcher.get('/en/searches');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    const html = await page.text();
    expect(html).toContain('Toyota · Tripoli');
    expect(html).toMatch(/data-testid="new-count"[^>]*><span[^>]*>1 new ad</);
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="frequency-daily"/);
    const arabic = await (await watcher.get('/searches')).text();
    expect(arabic).toContain('عمليات البحث المحفوظة');
    expect(arabic).toContain('إعلان جديد واحد');

    // Opening it goes to its listing and its results are seen from then on.
    const open = await watcher.post('/en/searches', { intent: 'open', id: String(saved?.id) });
    expect(open.status).toBe(302);
    expect(open.headers.get('location')).toBe('/en/posts?category=toyota&city=tripoli');
    expect(searchesOf(id)[0]?.last_seen_at).not.toBeNull();
    expect(await (await watcher.get('/en/searches')).text()).toContain('No new ads since you last looked');
  });

  it('renames, changes alerts and deletes after asking; refuses bad input and someone else’s search', async () => {
    const b = await member('editor', { phone: false });
    const id = await idOf(b);
    await save(b, 'q=شقق&city=benghazi');
    const sid = String(searchesOf(id)[0]?.id);
    const rename = await b.post('/en/searches', { intent: 'rename', id: sid, name: 'Flats in Benghazi' });
    expect(rename.status).toBe(302);
    expect(searchesOf(id)[0]?.name).toBe('Flats in Benghazi');
    const frequency = await b.post('/en/searches', { intent: 'frequency', id: sid, frequency: 'instant' });
    expect(frequency.status).toBe(302);
    expect(searchesOf(id)[0]?.frequency).toBe('instant');
    expect(sql('select frequency from saved_search_index where saved_search_id = ?', Number(sid))).toEqual([
      { frequency: 'instant' },
    ]);

    // Bad input: 422, translated, nothing changed.
    const blank = await b.post('/en/searches', { intent: 'rename', id: sid, name: '  ' });
    expect(blank.status).toBe(422);
    expect(await blank.text()).toContain('The name field is required');
    const long = await b.post('/searches', { intent: 'rename', id: sid, name: 'x'.repeat(121) });
    expect(long.status).toBe(422);
    expect(await long.text()).toContain('120');
    expect((await b.post('/en/searches', { intent: 'frequency', id: sid, frequency: 'hourly' })).status).toBe(422);
    expect((await b.post('/en/searches', { intent: 'rename', id: 'abc', name: 'x' })).status).toBe(422);
    expect((await b.post('/en/searches', { intent: 'explode', id: sid })).status).toBe(422);
    expect(searchesOf(id)[0]).toMatchObject({ name: 'Flats in Benghazi', frequency: 'instant' });
    // A form from another site changes nothing.
    expect(
      (await b.post('/en/searches', { intent: 'delete', id: sid, confirmed: '1' }, 'https://evil.example')).status,
    ).toBe(419);
    // Someone else's search is not found, for every action.
    const other = await member('other', { phone: false });
    const forms: Record<string, string>[] = [
      { intent: 'open', id: sid },
      { intent: 'rename', id: sid, name: 'Mine now' },
      { intent: 'frequency', id: sid, frequency: 'off' },
      { intent: 'delete', id: sid, confirmed: '1' },
    ];
    for (const form of forms) {
      expect((await other.post('/en/searches', form)).status, form.intent).toBe(404);
    }
    expect(searchesOf(id)).toHaveLength(1);

    // Deleting asks first; confirmed, it is gone.
    const ask = await b.post('/en/searches', { intent: 'delete', id: sid });
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('Delete this saved search?');
    expect(searchesOf(id)).toHaveLength(1);
    const done = await b.post('/en/searches', { intent: 'delete', id: sid, confirmed: '1' });
    expect(done.status).toBe(302);
    expect(searchesOf(id)).toEqual([]);
  });
});

describe('saved searches API', () => {
  it('needs a session and the anti-forgery header, and keeps each member to their own', async () => {
    const visitor = browser();
    expect((await api(visitor, 'GET', '/api/saved-searches')).status).toBe(401);
    expect((await api(visitor, 'POST', '/api/saved-searches', { query: 'category=cars' })).status).toBe(401);
    const b = await member('api', { phone: false });
    expect((await api(b, 'POST', '/api/saved-searches', { query: 'category=cars' }, { xsrf: false })).status).toBe(419);

    const created = await api(b, 'POST', '/api/saved-searches', { query: 'city=misrata&category=cars&bogus=1' });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: number; name: string; query: string; path: string } };
    expect(data).toMatchObject({ name: 'Cars · Misrata', query: 'category=cars&city=misrata', frequency: 'daily' });
    expect(data.path).toBe('/posts?category=cars&city=misrata');
    expect((await api(b, 'POST', '/api/saved-searches', { query: 'category=cars&city=misrata' })).status).toBe(200);

    const listed = (await (await api(b, 'GET', '/api/saved-searches')).json()) as { data: { id: number }[] };
    expect(listed.data.map((s) => s.id)).toEqual([data.id]);
    expect(listed.data[0]).toMatchObject({ new_results: 0, new_results_exact: true });

    const patched = await api(b, 'PATCH', `/api/saved-searches/${data.id}`, { name: 'Misrata cars', frequency: 'off' });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { data: unknown }).data).toMatchObject({
      name: 'Misrata cars',
      frequency: 'off',
    });
    const bad = await api(b, 'PATCH', `/api/saved-searches/${data.id}`, { frequency: 'weekly', name: '' });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { errors: Record<string, string[]> };
    expect(body.errors.frequency?.[0]).toBe('The selected alert frequency is invalid');
    expect(body.errors.name?.[0]).toBe('The name field is required');
    expect((await api(b, 'PATCH', `/api/saved-searches/${data.id}`, {})).status).toBe(422);
    expect((await api(b, 'POST', '/api/saved-searches', { query: 42 })).status).toBe(422);

    const other = await member('api-other', { phone: false });
    expect((await api(other, 'PATCH', `/api/saved-searches/${data.id}`, { name: 'x' })).status).toBe(404);
    expect((await api(other, 'DELETE', `/api/saved-searches/${data.id}`)).status).toBe(404);
    expect((await api(other, 'POST', `/api/saved-searches/${data.id}/seen`)).status).toBe(404);
    expect((await api(b, 'GET', '/api/saved-searches/abc')).status).toBe(404);

    expect((await api(b, 'POST', `/api/saved-searches/${data.id}/seen`)).status).toBe(204);
    expect((await api(b, 'DELETE', `/api/saved-searches/${data.id}`)).status).toBe(204);
    expect(searchesOf(await idOf(b))).toEqual([]);
  });
});

describe('instant alerts', () => {
  it('tell the member live and by mail in their language with one-click unsubscribe; never the seller', async () => {
    const watcher = await member('instant', { phone: false });
    const id = await idOf(watcher);
    await save(watcher, 'category=toyota&q=corolla');
    const sid = String(searchesOf(id)[0]?.id);
    await watcher.post('/en/searches', { intent: 'frequency', id: sid, frequency: 'instant' });
    sql("update users set locale = 'ar' where id = ? returning id", id);
    // The seller saved the same search: their own ad tells them nothing.
    const seller = await member('instant-seller');
    await save(seller, 'category=toyota&q=corolla');
    const sellerId = await idOf(seller);
    sql("update saved_searches set frequency = 'instant' where user_id = ? returning id", sellerId);
    sql("update saved_search_index set frequency = 'instant' where user_id = ? returning user_id", sellerId);

    const title = `Toyota Corolla instant ${Date.now().toString(36)}`;
    const ad = await placeToyota(seller, title);
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${ad.id}` })).status).toBeLessThan(400);

    const mail = await waitForMail(mailDir, emailOf(id), /جديد على سوق/, 15_000);
    expect(mail.subject).toContain(title);
    expect(mail.body).toContain('إعلان جديد يطابق بحثك المحفوظ');
    expect(mail.links.some((l) => l.endsWith(ad.url.replace(/^\/en/, '')))).toBe(true);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<([^>]+)>/.exec(mail.header('List-Unsubscribe'))?.[1] ?? '';
    expect(oneClick).toMatch(/\/api\/unsubscribe\/[\w-]+\.[\w-]+$/);
    const told = sql<{ type: string; data: string }>('select type, data from notifications where user_id = ?', id);
    expect(told.map((n) => n.type)).toEqual(['saved-search-match']);
    expect(JSON.parse(told[0]?.data ?? '{}')).toMatchObject({ ad_id: ad.id, title });
    expect(sql('select id from notifications where user_id = ? and type = ?', sellerId, 'saved-search-match')).toEqual(
      [],
    );
    const list = await (await watcher.get('/notifications')).text();
    expect(list).toContain('إعلان جديد لبحثك المحفوظ');

    // The mail program's one-click POST, without cookies or anti-forgery header, stops these mails.
    const token = oneClick.split('/').pop() as string;
    const res = await fetch(`${base}/api/unsubscribe/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(204);
    expect(
      sql(
        'select enabled from notification_preferences where user_id = ? and type = ? and channel = ?',
        id,
        'saved-search-match',
        'email',
      ),
    ).toEqual([{ enabled: 0 }]);
  });
});

/** Waits until no notification or mail job that is due is left to run (the server's own worker). */
async function mailJobsSettled() {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const left = sql(
      "select id from jobs where name in ('alert-saved-searches', 'notification-mail', 'send-mail') and status in ('pending', 'running') and run_at <= ?",
      Date.now(),
    );
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${left.length} mail jobs still due`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('instant alerts in English', () => {
  it('mail an English-speaking member in English; the header’s one-click address stops exactly that type', async () => {
    const watcher = await member('instant-en', { phone: false });
    const canary = await member('instant-en-canary', { phone: false });
    const ids = [await idOf(watcher), await idOf(canary)];
    const query = `category=toyota&q=${Date.now().toString(36)}`;
    for (const [i, b] of [watcher, canary].entries()) {
      await save(b, query);
      const sid = String(searchesOf(ids[i] as string)[0]?.id);
      expect((await b.post('/en/searches', { intent: 'frequency', id: sid, frequency: 'instant' })).status).toBe(302);
      sql("update users set locale = 'en' where id = ? returning id", ids[i] as string);
    }
    const [watcherId, canaryId] = ids as [string, string];
    const word = query.split('q=')[1] as string;
    const seller = await member('instant-en-seller');
    const title = `Toyota Corolla ${word}`;
    const ad = await placeToyota(seller, title);
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${ad.id}` })).status).toBeLessThan(400);

    const mail = await waitForMail(mailDir, emailOf(watcherId), /^New on Souq for /, 15_000);
    // Named by what it asks for in English ("Toyota", its words), then the ad's title.
    expect(mail.subject).toMatch(new RegExp(`^New on Souq for “[^”]*Toyota[^”]*”: ${title}$`));
    expect(mail.subject).toContain(word);
    expect(mail.body).toContain('Hello Member,');
    expect(mail.body).toContain('A new ad matches your saved search “');
    expect(mail.body).toContain('Stop emails about: New ads for a saved search');
    expect(mail.body).not.toMatch(/[\u0600-\u06FF]/);
    expect(mail.links.some((l) => l.endsWith(ad.url))).toBe(true);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = new URL(/^<([^>]+)>$/.exec(mail.header('List-Unsubscribe'))?.[1] ?? '');
    expect(oneClick.pathname).toMatch(/^\/api\/unsubscribe\/[\w-]+\.[\w-]+$/);
    const token = oneClick.pathname.split('/').pop() as string;
    expect(mail.links.some((l) => l.endsWith(`/en/unsubscribe/${token}`))).toBe(true);

    // The mail program's one-click POST to the header's address (on this server).
    const res = await fetch(`${base}${oneClick.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(204);
    // Exactly that type is off; every other type keeps its default.
    expect(sql('select type, channel, enabled from notification_preferences where user_id = ?', watcherId)).toEqual([
      { type: 'saved-search-match', channel: 'email', enabled: 0 },
    ]);
    const visitor = browser();
    expect(await (await visitor.get(`/en/unsubscribe/${token}`)).text()).toContain('You get no emails about');
    const approved = await visitor.get(`/en/unsubscribe/${unsubscribeToken(secret(), watcherId, 'ad-approved')}`);
    expect(await approved.text()).toContain('Stop emails about “My ad is approved”?');

    // The next matching ad: the canary hears of it by mail, the member who stopped them does not
    // (they still get the notification on the site).
    await mailJobsSettled();
    const second = await placeToyota(seller, `Toyota Camry ${word}`);
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${second.id}` })).status).toBeLessThan(400);
    await waitForMails(mailDir, emailOf(canaryId), /^New on Souq for /, 2, 15_000);
    await mailJobsSettled();
    expect(
      readMails(mailDir).filter((m) => m.to === emailOf(watcherId) && m.subject.startsWith('New on Souq')),
    ).toHaveLength(1);
    expect(
      sql('select id from notifications where user_id = ? and type = ?', watcherId, 'saved-search-match'),
    ).toHaveLength(2);
  });
});

describe('unsubscribe links', () => {
  it('ask before stopping; forged and expired tokens are 4xx and change nothing', async () => {
    const b = await member('unsub', { phone: false });
    const id = await idOf(b);
    const token = unsubscribeToken(secret(), id, 'ad-approved');
    const visitor = browser();
    const prefs = () =>
      sql(
        'select enabled from notification_preferences where user_id = ? and type = ? and channel = ?',
        id,
        'ad-approved',
        'email',
      );

    const page = await visitor.get(`/en/unsubscribe/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stop emails about “My ad is approved”?');
    expect(prefs()).toEqual([]);
    const arabic = await (await visitor.get(`/unsubscribe/${token}`)).text();
    expect(arabic).toContain('إيقاف الرسائل عن «تمت الموافقة على إعلاني»؟');

    const forged = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await visitor.get(`/en/unsubscribe/${forged}`)).status).toBe(404);
    expect((await visitor.post(`/en/unsubscribe/${forged}`, {})).status).toBe(404);
    expect((await fetch(`${base}/api/unsubscribe/${forged}`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/api/unsubscribe/not-a-token`, { method: 'POST' })).status).toBe(404);
    const otherSecret = unsubscribeToken('another-secret-of-another-site-0123456789', id, 'ad-approved');
    expect((await fetch(`${base}/api/unsubscribe/${otherSecret}`, { method: 'POST' })).status).toBe(404);
    const expired = unsubscribeToken(secret(), id, 'ad-approved', Date.now() - 91 * 86_400_000);
    const gone = await visitor.get(`/en/unsubscribe/${expired}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('This link has expired');
    expect((await visitor.post(`/en/unsubscribe/${expired}`, {})).status).toBe(410);
    const api410 = await fetch(`${base}/api/unsubscribe/${expired}`, { method: 'POST', headers: { 'x-locale': 'en' } });
    expect(api410.status).toBe(410);
    expect(((await api410.json()) as { message: string }).message).toBe('This link has expired.');
    expect(prefs()).toEqual([]);

    // The page's button (a form of this site) stops them, without signing in.
    const stop = await visitor.post(`/en/unsubscribe/${token}`, {});
    expect(stop.status).toBe(200);
    expect(await stop.text()).toContain('you will no longer get emails about “My ad is approved”');
    expect(prefs()).toEqual([{ enabled: 0 }]);
    expect(await (await visitor.get(`/en/unsubscribe/${token}`)).text()).toContain('You get no emails about');
  });
});
