// /notifications and the header's unread counter on the built server (docs/product/accounts-and-roles.md,
// "Notifications"): a member's own notifications only, translated (Arabic plural forms), unread ones
// marked, each linking to its subject; marking one or all read by plain form posts, guarded on the
// server (someone else's id is 404, malformed ones 422, a foreign Origin 419); keyset pages.
import { beforeAll, describe, expect, it } from 'vitest';
import { member, placeToyota } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const DAY = 86_400_000;

async function signIn(login: string): Promise<Browser> {
  const b = browser();
  expect((await b.post('/en/login', { login, password: 'password123' })).status).toBe(302);
  return b;
}

const idOf = async (b: Browser) => String((await b.whoami()).user?.id);

/** Writes a notification straight into the server's database (a state no page makes on demand). */
function insert(userId: string, type: string, data: Record<string, unknown>, at = new Date()): number {
  return sql<{ id: number }>(
    'insert into notifications (user_id, type, data, created_at) values (?, ?, ?, ?) returning id',
    userId,
    type,
    JSON.stringify(data),
    at.toISOString(),
  )[0]?.id as number;
}

const readAt = (id: number) =>
  sql<{ read_at: string | null }>('select read_at from notifications where id = ?', id)[0]?.read_at;
const unreadOf = (userId: string) =>
  sql<{ n: number }>('select count(*) n from notifications where user_id = ? and read_at is null', userId)[0]?.n;
/** The header bell's count as the server rendered it. */
const bell = (html: string) => Number(/data-testid="notification-bell"[^>]*data-count="(\d+)"/.exec(html)?.[1] ?? -1);
const items = (html: string) => html.split('data-testid="notification"').length - 1;

let moderator: Browser;
beforeAll(async () => {
  moderator = await signIn('moderator@souq.test');
});

describe('/notifications', () => {
  it('shows an approval to the ad’s owner only, translated, unread, linking to the ad; the bell counts it', async () => {
    const owner = await member('notified');
    const ad = await placeToyota(owner, 'Toyota Corolla 2015 awaiting approval');
    const before = await (await owner.get('/en/notifications')).text();
    expect(bell(before)).toBe(0);
    expect(before).toContain('No notifications yet');
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${ad.id}` })).status).toBeLessThan(400);

    const res = await owner.get('/en/notifications');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    expect(items(html)).toBe(1);
    expect(html).toContain('Your ad was approved and is live');
    expect(html).toContain('Toyota Corolla 2015 awaiting approval');
    expect(html).toContain(`href="${ad.own}"`);
    expect(html).toMatch(/data-unread="true" data-testid="notification"/);
    expect(html).toContain('You have 1 unread notification.');
    expect(bell(html)).toBe(1);
    // Every page's header says so, in both languages.
    const home = await (await owner.get('/')).text();
    expect(bell(home)).toBe(1);
    expect(home).toContain('aria-label="الإشعارات: إشعار واحد غير مقروء"');
    const arabic = await (await owner.get('/notifications')).text();
    expect(arabic).toContain('تمت الموافقة على إعلانك وهو منشور الآن');
    expect(arabic).toContain(`href="${ad.own.replace(/^\/en/, '')}"`);
    expect(arabic).toContain('لديك إشعار واحد غير مقروء.');
    // Nobody else sees it.
    const stranger = await (await (await member('stranger', { phone: false })).get('/en/notifications')).text();
    expect(stranger).not.toContain('awaiting approval');
    expect(bell(stranger)).toBe(0);
  });

  it('words each stored kind, with Arabic plural forms for the days left', async () => {
    const b = await member('kinds', { phone: false });
    const id = await idOf(b);
    const now = Date.now();
    const expiring = (days: number) =>
      insert(id, 'ad-expiring', {
        ad_id: 999_999_999,
        title: `Expiring in ${days}`,
        expires_at: new Date(now + days * DAY - 60_000).toISOString(),
      });
    for (const days of [1, 2, 3, 11, 100]) expiring(days);
    insert(id, 'ad-expiring', {
      ad_id: 999_999_999,
      title: 'Already past',
      expires_at: new Date(now - DAY).toISOString(),
    });
    insert(id, 'ad-expired', { ad_id: 999_999_999, title: 'Gone stale' });
    insert(id, 'ad-rejected', { ad_id: 999_999_999, title: 'Refused one', reason: 'duplicate' });
    insert(id, 'ad-rejected', { ad_id: 999_999_999, title: 'Refused change', reason: 'Blurry photos', change: true });
    insert(id, 'ad-approved', { ad_id: 999_999_999, title: 'Changed one', change: true });
    insert(id, 'system', {});
    const en = await (await b.get('/en/notifications')).text();
    for (const words of [
      'Your ad expires in 1 day',
      'Your ad expires in 3 days',
      'Your ad expires in 100 days',
      'Your ad has reached its end date',
      'Your ad has expired',
      'Your ad was not approved',
      'Reason: Duplicate ad',
      'Your changes to this ad were not approved; it stays as it was',
      'Reason: Blurry photos',
      'Your changes to this ad were approved',
      'New notification',
      // The ad is gone: no link, and the words say so.
      'This ad is no longer on the site.',
      'You have 11 unread notifications.',
    ]) {
      expect(en, words).toContain(words);
    }
    expect(en).not.toContain('href="/en/profile/posts/');
    const ar = await (await b.get('/notifications')).text();
    for (const words of [
      'ينتهي إعلانك بعد يوم واحد',
      'ينتهي إعلانك بعد يومين',
      'ينتهي إعلانك بعد 3 أيام',
      'ينتهي إعلانك بعد 11 يومًا',
      'ينتهي إعلانك بعد 100 يوم',
      'انتهت مدة إعلانك',
      'لم تتم الموافقة على إعلانك',
      'لديك 11 إشعارًا غير مقروء.',
    ]) {
      expect(ar, words).toContain(words);
    }
  });

  it('marks one read and then all, by plain form posts; the counter follows', async () => {
    const b = await member('reader', { phone: false });
    const id = await idOf(b);
    const first = insert(id, 'ad-expired', { ad_id: 1, title: 'First' });
    const second = insert(id, 'ad-expired', { ad_id: 1, title: 'Second' });
    const third = insert(id, 'ad-expired', { ad_id: 1, title: 'Third' });
    const one = await b.post('/en/notifications', { intent: 'read', id: String(first) });
    expect(one.status).toBe(302);
    expect(one.headers.get('location')).toBe('/en/notifications');
    expect(readAt(first)).not.toBeNull();
    expect(readAt(second)).toBeNull();
    // Marking a read one again changes nothing and is no error.
    expect((await b.post('/en/notifications', { intent: 'read', id: String(first) })).status).toBe(302);
    // From an older page, back to that page.
    const paged = await b.post(`/en/notifications?before=${third}`, { intent: 'read', id: String(second) });
    expect(paged.headers.get('location')).toBe(`/en/notifications?before=${third}`);
    const html = await (await b.get('/en/notifications')).text();
    expect(bell(html)).toBe(1);
    expect(html.match(/data-unread="true"/g)?.length).toBe(1);
    expect(html).toContain('Mark all as read');

    const all = await b.post('/en/notifications', { intent: 'read-all' });
    expect(all.status).toBe(302);
    expect(all.headers.get('location')).toBe('/en/notifications');
    expect(unreadOf(id)).toBe(0);
    const after = await (await b.get('/en/notifications')).text();
    expect(after).toContain('All your notifications are marked as read.');
    expect(after).toContain('You have read all your notifications.');
    expect(after).not.toContain('Mark all as read');
    expect(after).not.toContain('data-unread');
    expect(bell(after)).toBe(0);
    // Nothing left to mark: still no error.
    expect((await b.post('/notifications', { intent: 'read-all' })).headers.get('location')).toBe('/notifications');
  });

  it('marks read in the background while its link is followed (the page’s script), answering data', async () => {
    const b = await member('clicker', { phone: false });
    const n = insert(await idOf(b), 'ad-expired', { ad_id: 1, title: 'Clicked' });
    const res = await b.post('/en/notifications', { intent: 'read', id: String(n), js: '1' });
    expect(res.status).toBe(200);
    expect(readAt(n)).not.toBeNull();
  });

  it('guards its actions: visitors log in, someone else’s id is 404, malformed ones 422, a foreign page 419', async () => {
    const owner = await member('guarded', { phone: false });
    const n = insert(await idOf(owner), 'ad-expired', { ad_id: 1, title: 'Mine' });
    const visitor = await browser().post('/en/notifications', { intent: 'read', id: String(n) });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe('/en/login?redirect=%2Fen%2Fnotifications');
    expect((await browser().post('/en/notifications', { intent: 'read-all' })).status).toBe(302);

    const stranger = await member('intruder', { phone: false });
    expect((await stranger.post('/en/notifications', { intent: 'read', id: String(n) })).status).toBe(404);
    expect((await stranger.post('/en/notifications', { intent: 'read', id: String(n), js: '1' })).status).toBe(404);
    expect((await stranger.post('/en/notifications', { intent: 'read', id: '999999999' })).status).toBe(404);
    await stranger.post('/en/notifications', { intent: 'read-all' });
    expect(readAt(n)).toBeNull();

    const malformed: Record<string, string>[] = [
      { intent: 'read', id: 'abc' },
      { intent: 'read', id: '0' },
      { intent: 'read', id: '-1' },
      { intent: 'read', id: '1.5' },
      { intent: 'read', id: '99999999999999' },
      { intent: 'read' },
      { intent: 'delete', id: String(n) },
      { id: String(n) },
      {},
    ];
    for (const form of malformed) {
      expect((await owner.post('/en/notifications', form)).status, JSON.stringify(form)).toBe(422);
    }
    // Page forms are protected by strict Origin checking (docs/api.md).
    const forged = await owner.post('/en/notifications', { intent: 'read-all' }, 'https://evil.example');
    expect(forged.status).toBe(419);
    expect(readAt(n)).toBeNull();
  });

  it('pages by keyset, 20 at a time, newest first', async () => {
    const b = await member('pager', { phone: false });
    const id = await idOf(b);
    const ids = Array.from({ length: 25 }, (_, i) => insert(id, 'ad-expired', { ad_id: 1, title: `Number ${i + 1}.` }));
    const first = await (await b.get('/en/notifications')).text();
    expect(items(first)).toBe(20);
    expect(first.indexOf('Number 25.')).toBeLessThan(first.indexOf('Number 24.'));
    expect(first).not.toContain('Number 5.');
    expect(first).toContain(`href="/en/notifications?before=${ids[5]}"`);
    expect(first).not.toContain('Back to the newest');
    const second = await (await b.get(`/en/notifications?before=${ids[5]}`)).text();
    expect(items(second)).toBe(5);
    expect(second).toContain('Number 5.');
    expect(second).toContain('Number 1.');
    expect(second).not.toContain('Number 6.');
    expect(second).toContain('Back to the newest');
    expect(second).not.toContain('Older notifications');
    const past = await (await b.get(`/en/notifications?before=${ids[0]}`)).text();
    expect(past).toContain('There are no older notifications.');
    for (const bad of ['abc', '0', '-3', '1e3', '99999999999999', '']) {
      expect((await b.get(`/en/notifications?before=${bad}`)).status, bad).toBe(404);
    }
  });

  it('the counter is for members only: a visitor’s page has no bell and no count', async () => {
    const html = await (await browser().get('/en')).text();
    expect(html).not.toContain('notification-bell');
    // Nor where the realtime client would connect: visitors never start it.
    expect(html).not.toContain('souq-key');
    const owner = await member('counted', { phone: false });
    const res = await owner.get('/en');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const page = await res.text();
    expect(bell(page)).toBe(0);
    expect(page).toContain('souq-key');
  });
});
