// The back office's cities, jobs and settings screens on the built server (docs/product/back-office.md):
// bad input is a 4xx that changes nothing, a city with ads is never deleted but merged, a dead job
// goes back to the queue once, and the settings (the super admin's only) take effect without a
// restart. Who may open each screen is tests/http/admin-matrix.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

const RUN = Date.now().toString(36);

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

const cityOf = (slug: string) => query<{ id: number }>('select id from cities where slug = ?', slug)[0]?.id;

const place = (slug: string, over: Record<string, string> = {}) => ({
  name_ar: 'واحة تجريبية',
  name_en: 'Test Oasis',
  slug,
  lat: '26.59',
  lng: '12.77',
  ...over,
});

/** An ad of `cityId` written straight into the server's database (its status does not matter here). */
function adIn(cityId: number): number {
  const cat = query<{ id: number; taxonomy_id: number }>(
    "select id, taxonomy_id from categories where slug = 'toyota'",
  )[0] as { id: number; taxonomy_id: number };
  const row = query<{ id: number }>(
    `insert into ads (taxonomy_id, category_id, slug, title, description, price, currency, price_type, city_id, status, updated_at)
     values (?, ?, 'ad', 'Oasis car', 'A car in the oasis', 1000, 'LYD', 'fixed', ?, 'draft', ?) returning id`,
    cat.taxonomy_id,
    cat.id,
    cityId,
    new Date().toISOString(),
  )[0] as { id: number };
  return row.id;
}

describe('cities', () => {
  let admin: Browser;
  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
  });

  it('lists the cities, searchable', async () => {
    const res = await admin.get('/en/admin/cities?q=tripoli');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Tripoli');
    expect(html).not.toContain('Benghazi</a>');
  });

  it('refuses bad input with 422 and adds nothing', async () => {
    const slug = `oasis-${RUN}`;
    const bads: Record<string, string>[] = [{ lat: '200' }, { lng: 'east' }, { slug: 'Not A Slug!' }, { name_ar: '' }];
    for (const bad of bads) {
      const res = await admin.post('/en/admin/cities', { intent: 'create', ...place(slug, bad) });
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    expect(cityOf(slug)).toBeUndefined();
    expect((await admin.post('/en/admin/cities', { intent: 'explode' })).status).toBe(400);
    expect((await admin.post('/en/admin/cities', { intent: 'up', id: 'x' })).status).toBe(400);
    expect((await admin.get('/en/admin/cities/abc/areas')).status).toBe(404);
    expect((await admin.get('/en/admin/cities/999999/areas')).status).toBe(404);
  });

  it('adds a city, refuses to delete it once it has ads, and merges it instead', async () => {
    const slug = `oasis-${RUN}`;
    const res = await admin.post('/en/admin/cities', { intent: 'create', ...place(slug) });
    expect(res.status).toBe(302);
    const id = cityOf(slug) as number;
    expect(res.headers.get('location')).toBe(`/en/admin/cities/${id}/areas`);
    expect((await admin.post('/en/admin/cities', { intent: 'create', ...place(slug) })).status).toBe(422);
    const page = await admin.get(`/en/admin/cities/${id}/areas`);
    expect(page.status).toBe(200);

    const ad = adIn(id);
    const refused = await admin.post(`/en/admin/cities/${id}/areas`, { intent: 'city-delete' });
    expect(refused.status).toBe(422);
    expect(cityOf(slug)).toBe(id);

    const tripoli = cityOf('tripoli') as number;
    expect((await admin.post(`/en/admin/cities/${id}/areas`, { intent: 'city-merge', into: String(id) })).status).toBe(
      422,
    );
    expect((await admin.post(`/en/admin/cities/${id}/areas`, { intent: 'city-merge', into: 'nowhere' })).status).toBe(
      422,
    );
    expect(cityOf(slug)).toBe(id);
    const merged = await admin.post(`/en/admin/cities/${id}/areas`, { intent: 'city-merge', into: String(tripoli) });
    expect(merged.status).toBe(302);
    expect(merged.headers.get('location')).toBe(`/en/admin/cities/${tripoli}/areas`);
    expect(cityOf(slug)).toBeUndefined();
    expect(query<{ city_id: number }>('select city_id from ads where id = ?', ad)[0]?.city_id).toBe(tripoli);
    const actions = query<{ action: string }>(
      "select action from revisions where subject_type = 'city' and subject_id = ? order by id",
      String(id),
    ).map((r) => r.action);
    expect(actions).toEqual(['create', 'merge']);
  });

  it('adds, orders and deletes an area of a city', async () => {
    const sabha = cityOf('sabha') as number;
    const path = `/en/admin/cities/${sabha}/areas`;
    const a = `sabha-a-${RUN}`;
    const b = `sabha-b-${RUN}`;
    expect((await admin.post(path, { intent: 'area-create', ...place(a) })).status).toBe(302);
    expect((await admin.post(path, { intent: 'area-create', ...place(b) })).status).toBe(302);
    const ids = (slug: string) => query<{ id: number }>('select id from areas where slug = ?', slug)[0]?.id as number;
    const order = () =>
      query<{ slug: string }>('select slug from areas where city_id = ? order by position, id', sabha).map(
        (r) => r.slug,
      );
    expect(order().slice(-2)).toEqual([a, b]);
    expect((await admin.post(path, { intent: 'area-up', area: String(ids(b)) })).status).toBe(302);
    expect(order().slice(-2)).toEqual([b, a]);
    expect((await admin.post(path, { intent: 'area-up', area: 'x' })).status).toBe(400);
    expect((await admin.post(path, { intent: 'area-delete', area: String(ids(a)) })).status).toBe(302);
    expect((await admin.post(path, { intent: 'area-delete', area: String(ids(b)) })).status).toBe(302);
    expect(order()).not.toContain(a);
  });
});

describe('jobs', () => {
  it('retries a dead job once', async () => {
    const admin = await signIn('admin@souq.test');
    const id = query<{ id: number }>(
      `insert into jobs (queue, name, payload, status, attempts, max_attempts, run_at, last_error)
       values ('parked', 'send-mail', '{}', 'dead', 5, 5, 0, 'Error: SMTP down ${RUN}') returning id`,
    )[0]?.id as number;
    const list = await admin.get(`/en/admin/jobs?status=dead&q=${RUN}`);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(`SMTP down ${RUN}`);
    expect((await admin.post('/en/admin/jobs', { intent: 'retry', id: String(id) })).status).toBe(302);
    expect(query('select status, attempts from jobs where id = ?', id)[0]).toEqual({ status: 'pending', attempts: 0 });
    expect((await admin.post('/en/admin/jobs', { intent: 'retry', id: String(id) })).status).toBe(409);
    expect((await admin.post('/en/admin/jobs', { intent: 'retry', id: 'abc' })).status).toBe(400);
    expect((await admin.post('/en/admin/jobs', { intent: 'other', id: String(id) })).status).toBe(400);
    query('delete from jobs where id = ? returning id', id);
  });
});

describe('settings', () => {
  let admin: Browser;
  const defaults = {
    moderation: 'pre',
    freeActiveAds: '5',
    lifetimeDays: '30',
    reminderDaysBefore: '3',
    repostCooldownDays: '7',
  };
  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
  });
  afterAll(async () => {
    expect((await admin.post('/en/admin/settings', defaults)).status).toBe(302);
  });

  it('is the super admin’s only', async () => {
    const moderator = await signIn('moderator@souq.test');
    expect((await moderator.get('/en/admin/settings')).status).toBe(403);
    expect((await moderator.post('/en/admin/settings', { ...defaults, moderation: 'post' })).status).toBe(403);
    expect((await admin.get('/en/admin/settings')).status).toBe(200);
  });

  it('refuses bad values with 422 and changes nothing', async () => {
    const before = query('select key, value from settings order by key');
    for (const bad of [
      { lifetimeDays: '0' },
      { lifetimeDays: '366' },
      { freeActiveAds: '-1' },
      { freeActiveAds: '2.5' },
      { moderation: 'never' },
      { reminderDaysBefore: '30', lifetimeDays: '30' },
      { repostCooldownDays: '' },
    ]) {
      expect((await admin.post('/en/admin/settings', { ...defaults, ...bad })).status, JSON.stringify(bad)).toBe(422);
    }
    expect(query('select key, value from settings order by key')).toEqual(before);
  });

  it('takes effect without a restart: under post-moderation a new ad goes live at once', async () => {
    expect((await admin.post('/en/admin/settings', { ...defaults, moderation: 'post' })).status).toBe(302);
    const seller = browser();
    const email = `oasis-${RUN}@example.ly`;
    await registerAndSignIn(seller, { name: 'Oasis Seller', email, password: 'settings-passphrase' });
    query(
      'update users set phone_number = ?, phone_number_verified = 1 where email = ? returning id',
      testPhoneNumber(),
      email,
    );
    const res = await seller.post('/en/place-your-ad/motors/cars/toyota', {
      title: 'Toyota Corolla 2015 in the oasis',
      description: 'Clean Corolla, one owner, placed while ads go live at once.',
      price_type: 'fixed',
      price: '45000',
      currency: 'LYD',
      city: String(cityOf('ghat')),
      contact_phone: 'on',
      submission_key: `k-${RUN}`,
      'attrs.year': '2015',
      'attrs.model': 'corolla',
    });
    expect(res.status, await res.clone().text()).toBe(302);
    const id = Number(/placed=(\d+)/.exec(res.headers.get('location') ?? '')?.[1]);
    expect(query<{ status: string }>('select status from ads where id = ?', id)[0]?.status).toBe('published');
    const revision = query<{ changes: string }>(
      "select changes from revisions where subject_type = 'settings' order by id desc limit 1",
    )[0];
    expect(JSON.parse(revision?.changes ?? '{}')).toEqual({ moderation: ['pre', 'post'] });
  });
});
