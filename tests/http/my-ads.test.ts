// /profile/posts and the own-ad page over real HTTP: tabs with counts, the owner's actions, and
// nobody else's ads.
import { describe, expect, it } from 'vitest';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

async function seller(): Promise<Browser> {
  const b = browser();
  const email = `mine-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await b.post('/en/register', {
    name: 'Mine',
    login: email,
    password: 'mine-passphrase',
    password_confirmation: 'mine-passphrase',
    terms: 'on',
  });
  return b;
}
async function placeAd(b: Browser, title: string) {
  const city = sql<{ id: number }>("select id from cities where slug = 'benghazi'")[0]?.id as number;
  const res = await b.post('/en/place-your-ad/motors/cars/toyota', {
    title,
    description: 'Family car in very good condition, serviced at the dealer.',
    price_type: 'negotiable',
    price: '38000',
    currency: 'LYD',
    city: String(city),
    'attrs.year': '2016',
    submission_key: `k-${Math.random()}`,
  });
  const id = Number(/placed=(\d+)/.exec(res.headers.get('location') ?? '')?.[1]);
  const slug = sql<{ slug: string }>('select slug from ads where id = ?', id)[0]?.slug;
  return { id, own: `/en/profile/posts/motors/toyota/${slug}-${id}` };
}

describe('my ads', () => {
  it('lists the member’s ads by status with counts, and only theirs', async () => {
    const b = await seller();
    const a = await placeAd(b, 'Toyota Camry 2016 first');
    const c = await placeAd(b, 'Toyota Camry 2016 second');
    sql(
      "update ads set status = 'published', published_at = ?, bumped_at = ?, expires_at = ? where id = ? returning id",
      new Date().toISOString(),
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
      new Date(Date.now() + 20 * 86_400_000).toISOString(),
      a.id,
    );
    const active = await (await b.get('/en/profile/posts')).text();
    expect(active).toContain('Toyota Camry 2016 first');
    expect(active).not.toContain('Toyota Camry 2016 second');
    const pending = await (await b.get('/en/profile/posts?status=pending')).text();
    expect(pending).toContain('Toyota Camry 2016 second');
    expect(pending).toContain('In review');
    const other = await (await (await seller()).get('/en/profile/posts?status=pending')).text();
    expect(other).not.toContain('Toyota Camry 2016 second');
    expect((await browser().get('/en/profile/posts')).status).toBe(302);
    expect(c.id).toBeGreaterThan(0);
  });

  it('lets the owner repost, mark sold and delete; others get 404 and nothing changes', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Yaris 2019 city car');
    sql(
      "update ads set status = 'published', published_at = ?, bumped_at = ?, expires_at = ? where id = ? returning id",
      new Date().toISOString(),
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
      new Date(Date.now() + 20 * 86_400_000).toISOString(),
      ad.id,
    );
    const stranger = await seller();
    expect((await stranger.post('/en/profile/posts', { id: String(ad.id), intent: 'delete' })).status).toBe(404);
    expect(sql<{ status: string }>('select status from ads where id = ?', ad.id)[0]?.status).toBe('published');
    const repost = await b.post('/en/profile/posts', { id: String(ad.id), intent: 'repost' });
    expect(repost.headers.get('location')).toBe('/en/profile/posts?done=repost');
    const again = await b.post('/en/profile/posts', { id: String(ad.id), intent: 'repost' });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain('You can repost this ad again in 7 days.');
    await b.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold' });
    expect(await (await b.get('/en/profile/posts?status=sold')).text()).toContain('Toyota Yaris 2019 city car');
    await b.post('/en/profile/posts', { id: String(ad.id), intent: 'delete' });
    expect(sql<{ status: string }>('select status from ads where id = ?', ad.id)[0]?.status).toBe('deleted');
  });

  it('shows one own ad with its history and views per day, to its owner only', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Prado 2012 diesel');
    const page = await b.get(ad.own);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Status history');
    expect(html).toContain('Waiting for review');
    expect(html).toContain('Views in the last 30 days');
    expect((await (await seller()).get(ad.own)).status).toBe(404);
    const stale = await b.get(`/en/profile/posts/motors/cars/x-${ad.id}`);
    expect(stale.status).toBe(301);
  });
});
