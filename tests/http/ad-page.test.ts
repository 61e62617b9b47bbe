// The ad page over real HTTP: who may see which status, canonical URLs, views once per visitor per
// day (bots excluded), structured data, 410 for deleted ads, and the owner's actions.
import { describe, expect, inject, it } from 'vitest';
import { adStatus, member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const seller = () => member('ad-owner');
const placeAd = placeToyota;

describe('the ad page', () => {
  it('shows a pending ad to its owner only, never indexed', async () => {
    const owner = await seller();
    const ad = await placeAd(owner);
    expect((await browser().get(ad.url)).status).toBe(404);
    expect((await (await seller()).get(ad.url)).status).toBe(404);
    const own = await owner.get(ad.url);
    expect(own.status).toBe(200);
    const html = await own.text();
    expect(html).toContain('Our team is reviewing this ad');
    expect(html).toContain('<meta name="robots" content="noindex"');
  });

  it('shows a published ad to everyone with its details, structured data and a canonical URL', async () => {
    const owner = await seller();
    const ad = await placeAd(owner, 'تويوتا كورولا ٢٠١٥ نظيفة', { 'attrs.mileage': '180000' });
    publish(ad.id);
    const res = await browser().get(ad.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('45,000 LYD');
    expect(html).toContain('Year');
    expect(html).toContain('2015');
    // A number reads grouped, a year never.
    expect(html).toContain('180,000 km');
    expect(html).not.toContain('2,015');
    expect(html).toContain('"@type":"Product"');
    expect(html).toContain('"availability":"https://schema.org/InStock"');
    expect(html).toContain('"@type":"BreadcrumbList"');
    expect(html).toContain('dir="auto"');
    const arabic = await (await browser().get(ad.url.replace('/en/', '/'))).text();
    expect(arabic).toContain('45,000 د.ل');
    // Stale slug or category → the canonical URL.
    for (const stale of [
      `/en/motors/toyota/old-title-${ad.id}`,
      `/en/motors/cars/${ad.url.split('/').pop()}`,
      `/en/motors/toyota/${ad.id}`,
    ]) {
      const moved = await browser().get(stale);
      expect(moved.status, stale).toBe(301);
      expect(moved.headers.get('location')).toBe(encodeURI(ad.url));
    }
    expect((await browser().get('/en/motors/toyota/nothing-999999999')).status).toBe(404);
  });

  it('counts a view once per visitor per day and never for bots or the owner', async () => {
    const owner = await seller();
    const ad = await placeAd(owner);
    publish(ad.id);
    const views = () => sql<{ views: number }>('select views from ads where id = ?', ad.id)[0]?.views;
    const visitor = browser();
    await visitor.get(ad.url);
    await visitor.get(ad.url);
    expect(views()).toBe(1);
    await browser().get(ad.url);
    expect(views()).toBe(2);
    await owner.get(ad.url);
    await fetch(inject('baseUrl') + ad.url, {
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    });
    expect(views()).toBe(2);
    expect(sql<{ views: number }>('select views from ad_views where ad_id = ?', ad.id)[0]?.views).toBe(2);
  });

  it('reveals the phone to signed-in members only, counting each reveal, within a limit', async () => {
    const owner = await seller();
    const ad = await placeAd(owner, 'Toyota Corolla 2015 call me', { contact_phone: 'on' });
    publish(ad.id);
    sql(
      "update users set phone_number = '+218912345678', phone_number_verified = 1 where id = (select user_id from ads where id = ?) returning id",
      ad.id,
    );
    const anonymous = await browser().post(ad.url, { intent: 'reveal-phone' });
    expect(anonymous.status).toBe(302);
    expect(await (await browser().get(ad.url)).text()).not.toContain('912345678');
    const buyer = await seller();
    const shown = await buyer.post(ad.url, { intent: 'reveal-phone' });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('+218912345678');
    const reveals = () => sql<{ n: number }>('select phone_reveals as n from ads where id = ?', ad.id)[0]?.n;
    expect(reveals()).toBe(1);
    expect(sql<{ n: number }>('select phone_reveals as n from ad_views where ad_id = ?', ad.id)[0]?.n).toBe(1);
    for (let i = 1; i < 30; i++) await buyer.post(ad.url, { intent: 'reveal-phone' });
    const limited = await buyer.post(ad.url, { intent: 'reveal-phone' });
    expect(limited.status).toBe(429);
    expect(reveals()).toBe(30);
    expect(await (await owner.get(ad.own)).text()).toContain('phone number shown 30 times');
  });

  it('shows the location only approximately, never the owner’s pin', async () => {
    const owner = await seller();
    const ad = await placeAd(owner, 'Toyota Corolla 2015 pinned', { lat: '32.88123', lng: '13.17456' });
    publish(ad.id);
    expect(sql<{ lat: number }>('select lat from ads where id = ?', ad.id)[0]?.lat).toBe(32.88123);
    const html = await (await browser().get(ad.url)).text();
    expect(html).toContain('approximate area');
    expect(html).not.toContain('32.88123');
    expect(html).not.toContain('13.17456');
  });

  it('answers 410 with similar ads once deleted', async () => {
    const owner = await seller();
    const other = await placeAd(owner, 'Toyota Yaris 2018 automatic');
    publish(other.id);
    const ad = await placeAd(owner);
    sql(
      "update ads set status = 'deleted', deleted_at = ?, updated_at = ? where id = ? returning id",
      new Date().toISOString(),
      new Date().toISOString(),
      ad.id,
    );
    const res = await browser().get(ad.url);
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(html).toContain('This ad has been removed');
    expect(html).toContain('Toyota Yaris 2018 automatic');
  });

  it('lets only the owner mark it sold (from the ad page, through their ads), showing the sold state', async () => {
    const owner = await seller();
    const ad = await placeAd(owner);
    publish(ad.id);
    const mine = await (await owner.get(ad.url)).text();
    expect(mine).toContain(`${ad.own}/edit`);
    expect(mine).toContain(`${ad.own}/repost`);
    const stranger = await seller();
    const theirs = await (await stranger.get(ad.url)).text();
    expect(theirs).not.toContain('/edit"');
    expect((await stranger.post(ad.url, { intent: 'mark-sold' })).status).toBe(404);
    expect((await stranger.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold' })).status).toBe(404);
    expect((await browser().post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold' })).status).toBe(302);
    expect(adStatus(ad.id)).toBe('published');
    expect(
      (await owner.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold', confirmed: '1' })).status,
    ).toBe(302);
    expect(adStatus(ad.id)).toBe('sold');
    const sold = await (await browser().get(ad.url)).text();
    expect(sold).toContain('The seller has marked this item as sold.');
    expect(sold).toContain('schema.org/SoldOut');
  });
});

describe('category pages list published ads', () => {
  it('of the category and its descendants, newest first, with stable page URLs', async () => {
    const owner = await seller();
    const published = await placeAd(owner, `Toyota Land Cruiser ${Date.now()}`);
    publish(published.id);
    const pendingTitle = `Toyota Hilux pending ${Date.now()}`;
    await placeAd(owner, pendingTitle);
    const title = sql<{ title: string }>('select title from ads where id = ?', published.id)[0]?.title as string;
    for (const page of ['/en/motors/toyota', '/en/motors/cars']) {
      const html = await (await browser().get(page)).text();
      expect(html, page).toContain(title);
      expect(html, page).toContain(`href="${published.url}"`);
      expect(html, page).not.toContain(pendingTitle);
    }
    const first = await browser().get('/en/motors/toyota?page=1');
    expect(first.status).toBe(301);
    expect(first.headers.get('location')).toBe('/en/motors/toyota');
    expect((await browser().get('/en/motors/toyota?page=999')).status).toBe(404);
    expect((await browser().get('/en/motors/toyota?page=abc')).status).toBe(404);
    // A taxonomy page lists its ads (tests/http/catalogue-pages.test.ts); one without any says so,
    // and how to post one.
    const listed = await (await browser().get('/en/property')).text();
    expect(listed).not.toContain('No ads here yet');
    const taxonomies = (await (await browser().get('/api/taxonomies')).json()) as { data: { slug: string }[] };
    const facets = (await (await browser().get('/api/posts')).json()) as {
      meta: { facets: { categories: { slug: string; count: number }[] } };
    };
    const withAds = new Set(facets.meta.facets.categories.filter((f) => f.count > 0).map((f) => f.slug));
    const bare = taxonomies.data.find((x) => !withAds.has(x.slug));
    if (bare) {
      const empty = await browser().get(`/en/${bare.slug}`);
      expect(empty.status).toBe(200);
      const emptyHtml = await empty.text();
      expect(emptyHtml).toContain('No ads here yet');
      expect(emptyHtml).toContain('Be the first to post in this category');
    }
  });
});

describe('reports and member pages', () => {
  it('takes one open report per member and ad, never from the owner', async () => {
    const owner = await seller();
    const ad = await placeAd(owner);
    publish(ad.id);
    const reporter = await seller();
    const first = await reporter.post(ad.url, {
      intent: 'report',
      reason: 'scam',
      note: 'Asks for a deposit by transfer',
    });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Our team will look at this ad.');
    await reporter.post(ad.url, { intent: 'report', reason: 'duplicate' });
    expect(sql<{ reason: string }>('select reason from reports where ad_id = ?', ad.id)).toEqual([
      { reason: 'duplicate' },
    ]);
    expect((await reporter.post(ad.url, { intent: 'report', reason: 'nonsense' })).status).toBe(422);
    expect((await owner.post(ad.url, { intent: 'report', reason: 'scam' })).status).toBe(404);
    expect((await browser().post(ad.url, { intent: 'report', reason: 'scam' })).status).toBe(302);
    expect(sql('select id from reports where ad_id = ?', ad.id)).toHaveLength(1);
  });

  it('shows a member’s public page with their published ads; unknown or banned → 404', async () => {
    const owner = await seller();
    const ad = await placeAd(owner, `Toyota Hiace ${Date.now()}`);
    publish(ad.id);
    const id = sql<{ user_id: string }>('select user_id from ads where id = ?', ad.id)[0]?.user_id as string;
    const res = await browser().get(`/en/users/${id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('1 active ad');
    expect(html).toContain(`href="${ad.url}"`);
    expect(await (await browser().get(ad.url)).text()).toContain(`href="/en/users/${id}"`);
    expect((await browser().get('/en/users/no-such-member')).status).toBe(404);
    sql('update users set banned_at = ? where id = ? returning id', new Date().toISOString(), id);
    expect((await browser().get(`/en/users/${id}`)).status).toBe(404);
  });
});
