// Companies and badges over HTTP (docs/product/companies.md, docs/product/back-office.md): the
// admin screens make a company, check its logo by its bytes, add a member by email; the public
// page in both languages (JSON-LD Organization, canonical, its ads), 404 for an unknown slug, the
// seller filter of the search, the sitemap; a badge granted shows on the member's page and the
// ad's; the company shows on the ad page and links to its page.
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const base = inject('baseUrl');
const RUN = Date.now().toString(36);
const SLUG = `dealer-${RUN}`;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

/** A multipart post of the logo form, as a browser sends it. */
async function uploadLogo(b: Browser, page: string, bytes: Uint8Array<ArrayBuffer>, filename: string, type: string) {
  const body = new FormData();
  body.set('intent', 'logo');
  body.set('image', new Blob([bytes], { type }), filename);
  return fetch(base + page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, cookie: b.cookieHeader(), 'x-forwarded-for': b.ip, origin: base },
    body,
  });
}

const companyRow = (slug: string) =>
  sql<{ id: number; logo: string | null; name_en: string }>(
    'select id, logo, name_en from companies where slug = ?',
    slug,
  )[0];

describe('companies and badges', () => {
  let admin: Browser;
  let seller: Browser;
  let sellerEmail: string;
  let sellerId: string;
  let companyId: number;
  let ad: Awaited<ReturnType<typeof placeToyota>>;

  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
    seller = await member('dealer');
    const who = await seller.whoami();
    sellerEmail = who.user?.email as string;
    sellerId = who.user?.id as string;
    ad = await placeToyota(seller, `Dealer Corolla ${RUN}`);
    publish(ad.id);
  }, 60_000);

  it('shows the lists and the new forms to staff', async () => {
    for (const path of [
      '/admin/companies',
      '/en/admin/companies',
      '/en/admin/companies/new',
      '/admin/badges',
      '/en/admin/badges/new',
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('refuses a bad company form with its words and stores nothing', async () => {
    const res = await admin.post('/en/admin/companies/new', {
      intent: 'save',
      slug: 'Not A Slug',
      name_ar: 'م',
      name_en: 'Bad Co',
      website: 'javascript:alert(1)',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('lowercase Latin letters');
    expect(html).toContain('web address');
    expect(sql('select id from companies where name_en = ?', 'Bad Co')).toEqual([]);
  });

  it('creates a company, takes its logo only when the bytes are an image, adds a member by email', async () => {
    const created = await admin.post('/en/admin/companies/new', {
      intent: 'save',
      slug: SLUG,
      name_ar: 'معرض الاختبار',
      name_en: `Test Motors ${RUN}`,
      phone: '+218912345678',
      website: 'https://test-motors.example.ly',
      city: String(sql<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id),
      verified: 'on',
    });
    expect(created.status).toBe(302);
    companyId = companyRow(SLUG)?.id as number;
    expect(created.headers.get('location')).toBe(`/en/admin/companies/${companyId}`);
    const page = `/en/admin/companies/${companyId}`;
    expect((await admin.get(page)).status).toBe(200);

    // Text named like a picture: refused by its bytes, nothing stored.
    const fake = await uploadLogo(
      admin,
      page,
      new TextEncoder().encode('<svg onload="alert(1)"/>'),
      'logo.png',
      'image/png',
    );
    expect(fake.status).toBe(422);
    expect(await fake.text()).toMatch(/isn.t a photo|not a photo|format|supported/i);
    expect(companyRow(SLUG)?.logo).toBeNull();

    const png = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#0a5' } })
      .png()
      .toBuffer();
    const real = await uploadLogo(admin, page, new Uint8Array(png), 'logo.bin', 'application/octet-stream');
    expect(real.status).toBe(302);
    const logo = companyRow(SLUG)?.logo as string;
    expect(logo).toMatch(new RegExp(`^companies/${companyId}/[a-f0-9]{16}$`));
    const file = await fetch(`${base}/uploads/${logo}-small.webp`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('image/webp');

    // Nobody has this address: a clear error.
    const nobody = await admin.post(page, { intent: 'add-member', login: `nobody-${RUN}@example.ly`, role: 'agent' });
    expect(nobody.status).toBe(422);
    expect(await nobody.text()).toContain('No member has this email address or phone number.');

    const added = await admin.post(page, { intent: 'add-member', login: sellerEmail, role: 'owner' });
    expect(added.status).toBe(302);
    expect(sql<{ company_id: number }>('select company_id from ads where id = ?', ad.id)[0]?.company_id).toBe(
      companyId,
    );
  });

  it('serves the company page in both languages, with its ads, JSON-LD and canonical address', async () => {
    for (const [path, lang] of [
      [`/companies/${SLUG}`, 'ar'],
      [`/en/companies/${SLUG}`, 'en'],
    ] as const) {
      const res = await browser().get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<html lang="${lang}`));
      expect(html).toContain(lang === 'ar' ? 'معرض الاختبار' : `Test Motors ${RUN}`);
      expect(html).toContain('"@type":"Organization"');
      expect(html).toContain(`Dealer Corolla ${RUN}`);
      expect(html).toMatch(
        new RegExp(`<link rel="canonical" href="[^"]*${lang === 'en' ? '/en' : ''}/companies/${SLUG}"`),
      );
      expect(html).toContain(`/uploads/companies/${companyId}/`);
    }
  });

  it('answers 404 for an unknown or malformed company', async () => {
    for (const path of ['/companies/no-such-company', '/en/companies/no-such-company', '/en/companies/Bad_Slug']) {
      const res = await browser().get(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
    expect((await browser().get(`/en/companies/${SLUG}?page=9`)).status).toBe(404);
  });

  it('shows the company on the ad page, linking to its page', async () => {
    const html = await (await browser().get(ad.url)).text();
    expect(html).toContain(`href="/en/companies/${SLUG}"`);
    expect(html).toContain('Verified company');
  });

  it('filters the search by seller type', async () => {
    const find = async (seller: string) => {
      const res = await fetch(`${base}/en/posts?${new URLSearchParams({ q: `Dealer Corolla ${RUN}`, seller })}`, {
        headers: { 'user-agent': BROWSER_UA },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    // The ad's link, not its words (the search box repeats the query).
    expect(await find('company')).toContain(`href="${ad.url}"`);
    expect(await find('individual')).not.toContain(`href="${ad.url}"`);
  });

  it('lists the company in the sitemap', async () => {
    const index = await (await fetch(`${base}/sitemap.xml`)).text();
    expect(index).toContain('/sitemaps/companies.xml');
    const xml = await (await fetch(`${base}/sitemaps/companies.xml`)).text();
    expect(xml).toContain(`/companies/${SLUG}</loc>`);
    expect(xml).toMatch(new RegExp(`hreflang="en" href="[^"]*/en/companies/${SLUG}"`));
  });

  it('grants a badge to a member, shown on their page and their ad cards, and revokes it', async () => {
    const slug = `trusted-${RUN}`;
    const created = await admin.post('/en/admin/badges/new', {
      intent: 'save',
      slug,
      name_ar: 'بائع موثوق',
      name_en: `Trusted ${RUN}`,
      icon: 'shield',
      colour: 'green',
      target: 'user',
    });
    expect(created.status).toBe(302);
    const badgePage = created.headers.get('location') as string;
    expect(badgePage).toMatch(/^\/en\/admin\/badges\/\d+$/);
    // An unknown icon key is refused.
    const bad = await admin.post('/en/admin/badges/new', {
      intent: 'save',
      slug: `bad-${RUN}`,
      name_ar: 'سيئة',
      name_en: 'Bad',
      icon: 'skull',
      colour: 'green',
      target: 'user',
    });
    expect(bad.status).toBe(422);

    expect((await admin.post(badgePage, { intent: 'grant', holder: sellerEmail })).status).toBe(302);
    const again = await admin.post(badgePage, { intent: 'grant', holder: sellerEmail });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain('They already hold this badge');

    const userPage = await (await browser().get(`/en/users/${sellerId}`)).text();
    expect(userPage).toContain(`Trusted ${RUN}`);
    const listing = await (await browser().get(`/en/companies/${SLUG}`)).text();
    expect(listing).toMatch(new RegExp(`role="img" aria-label="Trusted ${RUN}"`));

    const grant = sql<{ id: number }>('select id from badge_grants where user_id = ?', sellerId)[0]?.id as number;
    expect((await admin.post(badgePage, { intent: 'revoke', grant: String(grant) })).status).toBe(302);
    expect(sql('select id from badge_grants where user_id = ?', sellerId)).toEqual([]);
    expect(await (await browser().get(`/en/users/${sellerId}`)).text()).not.toContain(`Trusted ${RUN}`);

    // The same from the member's page in the back office: grant, shown there, take back.
    const badgeId = badgePage.split('/').pop() as string;
    const memberPage = `/en/admin/users/${sellerId}`;
    expect(await (await admin.get(memberPage)).text()).toContain(`<option value="${badgeId}">Trusted ${RUN}</option>`);
    expect((await admin.post(memberPage, { intent: 'grant-badge', badge: badgeId })).status).toBe(302);
    expect(sql('select badge_id from badge_grants where user_id = ?', sellerId)).toEqual([
      { badge_id: Number(badgeId) },
    ]);
    expect(await (await admin.get(memberPage)).text()).toContain(`Take back: Trusted ${RUN}`);
    // Held already, no such badge, no badge at all: refused, nothing changes.
    expect((await admin.post(memberPage, { intent: 'grant-badge', badge: badgeId })).status).toBe(422);
    expect((await admin.post(memberPage, { intent: 'grant-badge', badge: '999999999' })).status).toBe(404);
    expect((await admin.post(memberPage, { intent: 'grant-badge' })).status).toBe(422);
    expect((await admin.post(memberPage, { intent: 'revoke-badge', badge: badgeId })).status).toBe(302);
    expect(sql('select badge_id from badge_grants where user_id = ?', sellerId)).toEqual([]);
  });

  it('shows staff who may only read a company without its forms, and refuses their posts', async () => {
    const viewer = await member('viewer', { phone: false });
    const id = (await viewer.whoami()).user?.id as string;
    sql(
      "insert into user_permissions (user_id, permission_id) select ?, id from permissions where name = 'view-companies' returning user_id",
      id,
    );
    const res = await viewer.get(`/en/admin/companies/${companyId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`Test Motors ${RUN}`);
    expect(html).not.toContain('value="add-member"');
    const post = await viewer.post(`/en/admin/companies/${companyId}`, { intent: 'logo-remove' });
    expect(post.status).toBe(403);
    expect(companyRow(SLUG)?.logo).not.toBeNull();
  });
});
