// Banners on the built server (docs/product/back-office.md, "Banners"): made through the back
// office's form (images checked by content, links validated), shown on the public pages where they
// belong (schedule, placement, targeting), the tracked redirect that only leads to a banner's own
// link, the impressions endpoint refusing bad input, the guards of the changes, and — on a server
// of its own with the page cache on — cached pages that stay cached yet change when a banner does.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { serverSql as query } from '../support/server-db.ts';

const base = inject('baseUrl');
const RUN = Date.now().toString(36);
const libyaDay = (offsetDays = 0) =>
  new Date(Date.now() + 2 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 60 } } })
    .jpeg()
    .toBuffer();

async function signIn(login: string, server = base): Promise<Browser> {
  const b = browser(undefined, server);
  const res = await b.post('/en/login', { login, password: 'password123' });
  expect(res.status).toBe(302);
  return b;
}

/** The back office's multipart form, as a browser sends it. */
async function postBanner(
  b: Browser,
  path: string,
  fields: Record<string, string>,
  files: Record<string, Buffer> = {},
  server = base,
): Promise<Response> {
  const form = new FormData();
  form.set('intent', 'save');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, v] of Object.entries(files))
    form.set(k, new Blob([new Uint8Array(v)], { type: 'image/jpeg' }), `${k}.jpg`);
  return fetch(server + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, cookie: b.cookieHeader(), 'x-forwarded-for': b.ip, origin: server },
    body: form,
  });
}

async function createBanner(b: Browser, fields: Record<string, string>, server = base): Promise<number> {
  const res = await postBanner(
    b,
    '/en/admin/banners/new',
    { active: 'on', ...fields },
    { image_ar_desktop: await jpeg(1600, 500) },
    server,
  );
  expect(res.status, await res.clone().text()).toBe(302);
  const id = Number(/\/admin\/banners\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

const shown = (html: string) => [...html.matchAll(/data-banner="(\d+)"/g)].map((m) => Number(m[1]));
const figures = (id: number) =>
  query<{ impressions: number; clicks: number }>(
    'select coalesce(sum(impressions), 0) as impressions, coalesce(sum(clicks), 0) as clicks from banner_stats where banner_id = ?',
    id,
  )[0];
const idOf = (table: string, slug: string) =>
  query<{ id: number }>(`select id from ${table} where slug = ?`, slug)[0]?.id as number;

describe('banners', () => {
  let admin: Browser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
    ids.hero1 = await createBanner(admin, {
      title_ar: `بانر أول ${RUN}`,
      title_en: `First banner ${RUN}`,
      link: '/posts?city=tripoli',
      placement: 'home-hero',
      position: '1',
      starts_on: libyaDay(),
    });
    ids.hero2 = await createBanner(admin, {
      title_ar: `ثاني ${RUN}`,
      link: 'https://example.ly/offer',
      placement: 'home-hero',
      position: '2',
    });
    ids.tomorrow = await createBanner(admin, {
      title_ar: `غدا ${RUN}`,
      link: '/about',
      placement: 'home-hero',
      starts_on: libyaDay(1),
    });
    ids.ended = await createBanner(admin, {
      title_ar: `انتهى ${RUN}`,
      link: '/about',
      placement: 'home-hero',
      ends_on: libyaDay(-1),
    });
    ids.motors = await createBanner(admin, {
      title_ar: `محركات ${RUN}`,
      link: '/motors',
      placement: 'listing-top',
      taxonomy: String(idOf('taxonomies', 'motors')),
      position: '0',
    });
    ids.tripoliAds = await createBanner(admin, {
      title_ar: `إعلانات طرابلس ${RUN}`,
      link: '/about',
      placement: 'ad-sidebar',
      city: String(idOf('cities', 'tripoli')),
    });
  }, 60_000);

  afterAll(() => {
    // The other files share this server and its home page: these banners leave it.
    query(`delete from banners where title_ar like ? returning id`, `%${RUN}`);
  });

  it('shows the live hero banners on the home page, in order, as pictures sized for the first paint', async () => {
    const html = await (await browser().get('/')).text();
    const onHome = shown(html);
    expect(onHome.indexOf(ids.hero1 as number)).toBeGreaterThanOrEqual(0);
    expect(onHome.indexOf(ids.hero1 as number)).toBeLessThan(onHome.indexOf(ids.hero2 as number));
    expect(onHome).not.toContain(ids.tomorrow);
    expect(onHome).not.toContain(ids.ended);
    // Listing and ad placements are not on the home page.
    expect(onHome).not.toContain(ids.motors);
    const first =
      new RegExp(`<a[^>]*href="/b/${ids.hero1}"[^>]*data-banner="${ids.hero1}"[^>]*>(.*?)</a>`).exec(html)?.[1] ?? '';
    expect(first).toMatch(/<img[^>]*width="1600"[^>]*height="500"/);
    expect(first).toMatch(/fetchPriority="high"|fetchpriority="high"/);
    expect(first).toMatch(/srcSet="[^"]*-small\.webp 480w, [^"]*-medium\.webp 960w, [^"]*-large\.webp 1600w"/);
    expect(first).toContain(`alt="بانر أول ${RUN}"`);
    // Its English page: English words, the English redirect.
    const en = await (await browser().get('/en')).text();
    expect(en).toContain(`alt="First banner ${RUN}"`);
    expect(en).toContain(`href="/en/b/${ids.hero1}"`);
  });

  it('aims listing and ad banners at the page’s taxonomy and city', async () => {
    expect(shown(await (await browser().get('/en/motors/cars')).text())).toContain(ids.motors);
    expect(shown(await (await browser().get('/en/posts?taxonomy=motors')).text())).toContain(ids.motors);
    expect(shown(await (await browser().get('/en/posts')).text())).not.toContain(ids.motors);
    expect(shown(await (await browser().get('/en/property/property-for-sale')).text())).not.toContain(ids.motors);
    // An ad page in Tripoli, and one elsewhere.
    const adIn = (city: string) =>
      query<{ id: number; slug: string; t: string; c: string }>(
        `select a.id, a.slug, t.slug as t, c.slug as c from ads a join taxonomies t on t.id = a.taxonomy_id
         join categories c on c.id = a.category_id join cities ci on ci.id = a.city_id
         where a.status = 'published' and ci.slug ${city === 'tripoli' ? '=' : '<>'} 'tripoli' limit 1`,
      )[0];
    for (const [city, expected] of [
      ['tripoli', true],
      ['elsewhere', false],
    ] as const) {
      const ad = adIn(city);
      if (!ad) throw new Error(`no published ad ${city}`);
      const res = await browser().get(encodeURI(`/en/${ad.t}/${ad.c}/${ad.slug}-${ad.id}`));
      expect(res.status).toBe(200);
      expect(shown(await res.text()).includes(ids.tripoliAds as number)).toBe(expected);
    }
  });

  it('a click goes to the banner’s own link only, counted once per click, never for crawlers', async () => {
    const visitor = browser();
    const before = figures(ids.hero2 as number);
    const res = await visitor.get(`/b/${ids.hero2}?to=https://evil.example/&url=https://evil.example/`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.ly/offer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // A site link stays in the page's language.
    expect((await visitor.get(`/en/b/${ids.hero1}`)).headers.get('location')).toBe('/en/posts?city=tripoli');
    expect((await visitor.get(`/b/${ids.hero1}`)).headers.get('location')).toBe('/posts?city=tripoli');
    expect(Number(figures(ids.hero2 as number)?.clicks)).toBe(Number(before?.clicks) + 1);
    const bot = await fetch(`${base}/b/${ids.hero2}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    });
    expect(bot.status).toBe(302);
    expect(Number(figures(ids.hero2 as number)?.clicks)).toBe(Number(before?.clicks) + 1);
    expect((await visitor.get('/b/2147483647')).status).toBe(404);
    expect((await visitor.get('/b/x1')).status).toBe(404);
  });

  it('counts impressions reported by the browser and refuses bad reports with a 4xx, counting nothing', async () => {
    const report = (body: string, type: string, ip = '10.250.1.1') =>
      fetch(`${base}/api/banners/impressions`, {
        method: 'POST',
        headers: { 'user-agent': BROWSER_UA, 'content-type': type, 'x-forwarded-for': ip },
        body,
      });
    const before = Number(figures(ids.hero1 as number)?.impressions);
    const bad: [string, string, number][] = [
      ['{"ids":"1"}', 'application/json', 422],
      ['{"ids":[]}', 'application/json', 422],
      ['{"ids":[-1]}', 'application/json', 422],
      ['{"ids":[1.5]}', 'application/json', 422],
      [JSON.stringify({ ids: Array.from({ length: 21 }, (_, i) => i + 1) }), 'application/json', 422],
      [`{"ids":[${ids.hero1}],"more":1}`, 'application/json', 422],
      ['[1,2]', 'application/json', 422],
      ['{"ids":[1', 'application/json', 400],
      ['ids=1,,2', 'application/x-www-form-urlencoded', 422],
      ['ids=abc', 'application/x-www-form-urlencoded', 422],
      [`${ids.hero1}`, 'text/plain', 415],
    ];
    for (const [body, type, status] of bad) {
      const res = await report(body, type);
      expect(res.status, body).toBe(status);
      expect((await res.json()).message).toBeTruthy();
    }
    expect(Number(figures(ids.hero1 as number)?.impressions)).toBe(before);
    // A beacon's form, and JSON; an ended banner's id is ignored.
    expect(
      (await report(`ids=${ids.hero1},${ids.hero2},${ids.ended}`, 'application/x-www-form-urlencoded')).status,
    ).toBe(204);
    expect((await report(JSON.stringify({ ids: [ids.hero1] }), 'application/json')).status).toBe(204);
    expect(Number(figures(ids.hero1 as number)?.impressions)).toBe(before + 2);
    expect(Number(figures(ids.ended as number)?.impressions)).toBe(0);
    // A day's figures are one row per banner (an upsert), whatever the number of reports.
    expect(query('select day from banner_stats where banner_id = ?', ids.hero1 as number)).toHaveLength(1);
  });

  it('limits impression reports per address', async () => {
    const ip = `10.251.${Math.floor(Math.random() * 250)}.9`;
    let status = 0;
    for (let i = 0; i < 61; i++) {
      const res = await fetch(`${base}/api/banners/impressions`, {
        method: 'POST',
        headers: {
          'user-agent': BROWSER_UA,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': ip,
        },
        body: `ids=${ids.tomorrow}`,
      });
      status = res.status;
      await res.arrayBuffer();
    }
    expect(status).toBe(429);
  });

  it('the form refuses bad links, non-images, a schedule ending before it starts; nothing is created', async () => {
    const count = () => Number(query<{ n: number }>('select count(*) as n from banners')[0]?.n);
    const before = count();
    const image = await jpeg(800, 400);
    for (const link of [
      'javascript:alert(1)',
      '//evil.example/',
      'ftp://example.ly/x',
      'https://user:pw@example.ly/',
      '/\\evil.example',
    ]) {
      const res = await postBanner(
        admin,
        '/en/admin/banners/new',
        { title_ar: 'x', link, placement: 'home-hero' },
        { image_ar_desktop: image },
      );
      expect(res.status, link).toBe(422);
      expect(await res.text()).toContain('The link must start with https://');
    }
    const svg = await postBanner(
      admin,
      '/en/admin/banners/new',
      { title_ar: 'x', link: '/posts', placement: 'home-hero' },
      { image_ar_desktop: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>') },
    );
    expect(svg.status).toBe(422);
    const dates = await postBanner(
      admin,
      '/en/admin/banners/new',
      { title_ar: 'x', link: '/posts', placement: 'home-hero', starts_on: '2026-06-10', ends_on: '2026-06-09' },
      { image_ar_desktop: image },
    );
    expect(dates.status).toBe(422);
    expect(await dates.text()).toContain('The last day cannot come before the first day');
    const noImage = await postBanner(admin, '/en/admin/banners/new', {
      title_ar: 'x',
      link: '/posts',
      placement: 'home-hero',
    });
    expect(noImage.status).toBe(422);
    expect(count()).toBe(before);
  });

  it('a member cannot change banners, staff without update-banners are refused, and nothing changes', async () => {
    const member = await signIn('user@souq.test');
    const moderator = await signIn('moderator@souq.test');
    const title = () =>
      query<{ title_ar: string }>('select title_ar from banners where id = ?', ids.hero2 as number)[0]?.title_ar;
    const was = title();
    const fields = { title_ar: 'changed', link: '/posts', placement: 'home-hero' };
    expect((await postBanner(member, `/en/admin/banners/${ids.hero2}`, fields)).status).toBe(404);
    expect((await member.post(`/en/admin/banners/${ids.hero2}`, { intent: 'delete' })).status).toBe(404);
    // The moderator role holds no banner permission.
    expect((await moderator.post(`/en/admin/banners/${ids.hero2}`, { intent: 'delete' })).status).toBe(403);
    expect((await postBanner(moderator, `/en/admin/banners/${ids.hero2}`, fields)).status).toBe(403);
    expect((await browser().post(`/en/admin/banners/${ids.hero2}`, { intent: 'delete' })).status).toBe(302);
    expect(title()).toBe(was);
  });

  it('edits keep the stored image, record a revision, and show the figures per day', async () => {
    const res = await postBanner(admin, `/en/admin/banners/${ids.hero2}`, {
      title_ar: `ثاني معدل ${RUN}`,
      link: 'https://example.ly/offer',
      placement: 'home-hero',
      position: '2',
      active: 'on',
    });
    expect(res.status).toBe(302);
    const page = await (await admin.get(`/en/admin/banners/${ids.hero2}`)).text();
    expect(page).toContain(`ثاني معدل ${RUN}`);
    expect(page).toMatch(/data-day="\d{4}-\d{2}-\d{2}"/);
    const revisions = query<{ action: string; changes: string }>(
      "select action, changes from revisions where subject_type = 'banner' and subject_id = ? order by id",
      String(ids.hero2),
    );
    expect(revisions.map((r) => r.action)).toEqual(['created', 'updated']);
    expect(Object.keys(JSON.parse(revisions[1]?.changes ?? '{}'))).toEqual(['title_ar']);
  });
});

describe('banners and the page cache', () => {
  let server: RunningTestServer;
  beforeAll(async () => {
    server = await startBuiltServer({
      SEED_DEMO: 'true',
      SEED_DEMO_ADS: 'false',
      TRUST_PROXY: '1',
      PAGE_CACHE_SECONDS: '60',
    });
  }, 120_000);
  afterAll(() => server?.stop());

  it('home pages stay cached with their banners, are dropped when a banner changes, and rendering counts nothing', async () => {
    const admin = await signIn('admin@souq.test', server.url);
    const visitor = () => browser(undefined, server.url);
    const id = await createBanner(admin, { title_ar: 'قبل', link: '/posts', placement: 'home-hero' }, server.url);
    const first = await visitor().get('/');
    expect(shown(await first.text())).toEqual([id]);
    const second = await visitor().get('/');
    expect(second.headers.get('x-page-cache')).toBe('hit');
    expect(shown(await second.text())).toEqual([id]);
    // Served from memory and rendered: no impression was counted by the server.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(`${server.dataDir}/souq.db`);
    try {
      expect(db.prepare('select count(*) as n from banner_stats').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // Switched off in the back office: the cached page is dropped at once.
    const off = await postBanner(
      admin,
      `/en/admin/banners/${id}`,
      { title_ar: 'بعد', link: '/posts', placement: 'home-hero' },
      {},
      server.url,
    );
    expect(off.status).toBe(302);
    const third = await visitor().get('/');
    expect(third.headers.get('x-page-cache')).not.toBe('hit');
    expect(shown(await third.text())).toEqual([]);
  }, 60_000);
});
