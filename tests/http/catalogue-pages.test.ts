// What a buyer sees of the catalogue over real HTTP (docs/product/site.md): taxonomy pages list
// their ads, tiles count ads, the home page has one search box on phones, the register page's
// texts are translated, and the site's own first path segments never reach the catalogue routes.
import { describe, expect, inject, it } from 'vitest';

const base = inject('baseUrl');
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const get = (path: string) => fetch(base + path, { redirect: 'manual', headers: { 'user-agent': PHONE } });

interface Card {
  id: number;
  slug: string;
  category_slug: string;
  taxonomy_slug: string;
}
interface Results {
  data: Card[];
  meta: { total: number; facets: { categories: { slug: string; count: number }[] } };
}
const api = async (query: string): Promise<Results> => (await fetch(`${base}/api/posts${query}`)).json();
const en = new Intl.NumberFormat('en-US');

describe('taxonomy pages', () => {
  it('list the newest ads of the taxonomy, count them and link to all of them', async () => {
    const motors = await api('?taxonomy=motors');
    expect(motors.meta.total).toBeGreaterThan(0);
    const res = await get('/en/motors');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('No ads here yet');
    expect(html).toContain('Latest ads in Motors');
    const newest = motors.data[0] as Card;
    expect(html).toContain(`href="/en/motors/${newest.category_slug}/${newest.slug}-${newest.id}"`);
    expect(html).toContain(`${en.format(motors.meta.total)} ads`);
    expect(html).toContain('href="/en/posts?taxonomy=motors"');
    // Each top-level category's tile counts the published ads of its whole subtree.
    const cars = motors.meta.facets.categories.find((f) => f.slug === 'cars');
    expect(cars?.count).toBeGreaterThan(0);
    expect(html).toMatch(new RegExp(`href="/en/motors/cars".*?${en.format(cars?.count ?? 0)} ads`, 's'));

    const arabic = await (await get('/motors')).text();
    expect(arabic).toContain('أحدث الإعلانات في');
    expect(arabic).not.toContain('لا توجد إعلانات هنا بعد');
  });
});

describe('the home page', () => {
  it('counts the published ads of each taxonomy on its tile, with Arabic plural forms', async () => {
    const all = await api('');
    const motors = all.meta.facets.categories.find((f) => f.slug === 'motors');
    expect(motors?.count).toBeGreaterThan(10);
    const html = await (await get('/en')).text();
    expect(html).toMatch(new RegExp(`href="/en/motors".*?${en.format(motors?.count ?? 0)} ads`, 's'));
    const arabic = await (await get('/')).text();
    // Western digits in Arabic too; 11 to 99 take the "many" form (إعلانًا), from 100 on "other" (إعلان), 3 to 10 "few" (إعلانات).
    const n = motors?.count ?? 0;
    const rule = new Intl.PluralRules('ar').select(n);
    const word = { few: 'إعلانات', many: 'إعلانًا', other: 'إعلان' }[rule as 'few' | 'many' | 'other'];
    expect(arabic).toMatch(new RegExp(`href="/motors".*?${en.format(n)} ${word}<`, 's'));
  });

  it('has one search box on phones: its own, without the header row', async () => {
    const html = await (await get('/')).text();
    expect(html.match(/role="search"/g)).toHaveLength(2); // the header's (wide screens only) and the hero's
    expect(html).not.toContain('id="site-search-mobile"');
    expect(html).toContain('id="home-search"');
    // Other pages keep the header's phone search row.
    expect(await (await get('/en/motors')).text()).toContain('id="site-search-mobile"');
  });
});

describe('the register page', () => {
  it('labels the terms checkbox with its text in both languages, never the key', async () => {
    const arabic = await (await get('/register')).text();
    expect(arabic).not.toContain('register.terms');
    expect(arabic).toMatch(/أوافق على <a[^>]*href="\/terms"[^>]*>شروط الاستخدام<\/a>/);
    const english = await (await get('/en/register')).text();
    expect(english).not.toContain('register.terms');
    expect(english).toMatch(/I accept the <a[^>]*href="\/en\/terms"[^>]*>terms of use<\/a>/);
  });
});

describe("the site's own first path segments", () => {
  // (`/place-your-ad/…` is a page of its own for any depth: it asks visitors to sign in.)
  const RESERVED = ['admin', 'profile', 'account', 'login', 'register', 'posts', 'users', 'faq', 'contact'];

  it('never read as a taxonomy: a real ad or category path under them is the translated 404', async () => {
    const ad = (await api('?taxonomy=motors')).data[0] as Card;
    for (const segment of RESERVED) {
      for (const path of [
        // `/admin/users/{id}` is the back office's member page (a visitor is sent to log in).
        ...(segment === 'admin' ? [] : [`/${segment}/users/${ad.id}`]),
        `/${segment}/${ad.category_slug}/${ad.slug}-${ad.id}`,
        `/${segment}/${ad.category_slug}`,
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(await res.text(), path).toContain('الصفحة غير موجودة');
        const english = await get(`/en${path}`);
        expect(english.status, `/en${path}`).toBe(404);
        expect(await english.text(), `/en${path}`).toContain('Page Not Found');
      }
    }
    for (const segment of ['admin', 'en', 'posts']) expect((await get(`/${segment}x/users/${ad.id}`)).status).toBe(301);
  });
});
