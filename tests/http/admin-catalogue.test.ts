// The catalogue editor on the built server (docs/product/back-office.md, "Catalogue"): staff add,
// rename and move categories and attributes through the forms; old category and ad addresses
// answer 301 to the new ones; the sitemap follows; each change needs its permission; bad input is
// a 4xx that changes nothing. Works on categories of its own, so other suites' catalogue stays.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query, withServerDb } from '../support/server-db.ts';

const RUN = Date.now().toString(36);
const TOP = `rt-${RUN}`;
const CHILD = `rt-child-${RUN}`;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  expect((await b.post('/en/login', { login, password })).status).toBe(302);
  return b;
}

/** A member holding exactly these permissions. */
async function staffWith(permissions: string[]): Promise<Browser> {
  const b = browser();
  const email = `cat-${RUN}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name: 'Catalogue', email, password: 'catalogue-passphrase' });
  withServerDb((db) => {
    const grant = db.prepare(
      'insert into user_permissions (user_id, permission_id) select u.id, p.id from users u, permissions p where u.email = ? and p.name = ?',
    );
    for (const p of permissions) grant.run(email, p);
  });
  return b;
}

const category = (slug: string) =>
  query<{ id: number; taxonomy_id: number; parent_id: number | null; active: number }>(
    'select id, taxonomy_id, parent_id, active from categories where slug = ?',
    slug,
  )[0];
const taxonomyId = (slug: string) =>
  query<{ id: number }>('select id from taxonomies where slug = ?', slug)[0]?.id as number;

describe('the catalogue editor', () => {
  let admin: Browser;
  let adId: number;

  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
  });

  it('adds a category and a child through the forms, each with a flash and a revision', async () => {
    const res = await admin.post('/en/admin/categories/motors', {
      intent: 'create',
      name_ar: 'قوارب تجربة',
      name_en: 'Test boats',
      slug: TOP,
      icon: 'sailboat',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/admin/categories/motors');
    expect(res.headers.get('set-cookie')).toContain('admin-created');
    const top = category(TOP);
    expect(top?.parent_id).toBeNull();
    const child = await admin.post(`/en/admin/categories/motors/${TOP}`, {
      intent: 'create',
      name_ar: 'زوارق تجربة',
      name_en: 'Test dinghies',
      slug: CHILD,
      icon: '',
    });
    expect(child.status).toBe(302);
    expect(category(CHILD)?.parent_id).toBe(top?.id);
    const revisions = query<{ action: string }>(
      "select action from revisions where subject_type = 'category' and subject_id = ?",
      String(top?.id),
    );
    expect(revisions.map((r) => r.action)).toEqual(['create']);
    const page = await admin.get(`/en/admin/categories/motors/${TOP}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Test dinghies');
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const before = query<{ n: number }>('select count(*) as n from categories')[0]?.n;
    const bad = await admin.post('/en/admin/categories/motors', {
      intent: 'create',
      name_ar: '',
      name_en: 'x',
      slug: 'Not A Slug',
      icon: 'no-such-icon',
    });
    expect(bad.status).toBe(422);
    const taken = await admin.post('/en/admin/categories/motors', {
      intent: 'create',
      name_ar: 'س',
      name_en: 'C',
      slug: 'cars',
    });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain('This address name is taken');
    expect((await admin.post('/en/admin/categories/motors', { intent: 'what' })).status).toBe(400);
    expect((await admin.post(`/en/admin/categories/motors/${TOP}`, { intent: 'up', id: '999999999' })).status).toBe(
      400,
    );
    expect((await admin.post(`/en/admin/categories/motors/${TOP}`, { intent: 'order', order: 'x,y' })).status).toBe(
      422,
    );
    expect((await admin.post(`/en/admin/categories/motors/${TOP}`, { intent: 'move', target: 'c:abc' })).status).toBe(
      422,
    );
    expect(
      (await admin.post(`/en/admin/categories/motors/${TOP}`, { intent: 'move', target: `c:${category(CHILD)?.id}` }))
        .status,
    ).toBe(422);
    expect(query<{ n: number }>('select count(*) as n from categories')[0]?.n).toBe(before);
    expect((await admin.get('/en/admin/categories/motors/no-such-category')).status).toBe(404);
    expect((await admin.get('/en/admin/categories/motors/Bad_Slug')).status).toBe(404);
    expect((await admin.get('/en/admin/taxonomies/99999999/attributes')).status).toBe(404);
    expect((await admin.get('/en/admin/taxonomies/abc/attributes')).status).toBe(404);
    // An attribute without options, of a type that needs them.
    const attr = await admin.post(`/en/admin/categories/motors/${TOP}/attributes`, {
      intent: 'create',
      key: 'hull',
      type: 'select',
      name_ar: 'الهيكل',
      name_en: 'Hull',
    });
    expect(attr.status).toBe(422);
    expect(query('select id from attributes where category_id = ?', category(TOP)?.id as number)).toEqual([]);
  });

  it('edits attributes: an option in use is removed only once its figure is confirmed', async () => {
    const path = `/en/admin/categories/motors/${TOP}/attributes`;
    const created = await admin.post(path, {
      intent: 'create',
      key: 'hull',
      type: 'select',
      name_ar: 'الهيكل',
      name_en: 'Hull',
      'options[0].value': 'wood',
      'options[0].ar': 'خشب',
      'options[0].en': 'Wood',
      'options[1].value': 'fibre',
      'options[1].ar': 'فايبر',
      'options[1].en': 'Fibreglass',
      filterable: 'on',
    });
    expect(created.status).toBe(302);
    const hull = query<{ id: number }>(
      "select id from attributes where key = 'hull' and category_id = ?",
      category(TOP)?.id as number,
    )[0]?.id as number;
    const child = category(CHILD) as { id: number; taxonomy_id: number };
    const city = query<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id as number;
    adId = query<{ id: number }>(
      `insert into ads (taxonomy_id, category_id, slug, title, description, city_id, status, published_at, bumped_at, updated_at)
       values (?, ?, 'test-dinghy', 'Test dinghy', 'A wooden dinghy', ?, 'published', ?, ?, ?) returning id`,
      child.taxonomy_id,
      child.id,
      city,
      new Date().toISOString(),
      new Date().toISOString(),
      new Date().toISOString(),
    )[0]?.id as number;
    query(
      'insert into ad_attribute_values (ad_id, attribute_id, value_option) values (?, ?, ?) returning id',
      adId,
      hull,
      'wood',
    );
    const keepFibre = {
      intent: 'save',
      id: String(hull),
      key: 'hull',
      type: 'select',
      name_ar: 'الهيكل',
      name_en: 'Hull',
      'options[0].value': 'fibre',
      'options[0].ar': 'فايبر',
      'options[0].en': 'Fibreglass',
      filterable: 'on',
    };
    const asked = await admin.post(path, keepFibre);
    expect(asked.status).toBe(409);
    expect(await asked.text()).toContain('1 ad uses the option “Wood”');
    expect(query('select ad_id from ad_attribute_values where attribute_id = ?', hull)).toHaveLength(1);
    expect((await admin.post(path, { ...keepFibre, confirmed: '1' })).status).toBe(302);
    expect(query('select ad_id from ad_attribute_values where attribute_id = ?', hull)).toHaveLength(0);
  });

  it('renames a slug: the old category address answers 301 to the new one', async () => {
    const res = await admin.post(`/en/admin/categories/motors/${TOP}`, {
      intent: 'rename',
      name_ar: 'قوارب تجربة',
      name_en: 'Test boats',
      slug: `${TOP}-new`,
      icon: 'sailboat',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/categories/motors/${TOP}-new`);
    const old = await browser().get(`/motors/${TOP}`);
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/motors/${TOP}-new`);
    const en = await browser().get(`/en/motors/${TOP}?sort=price_asc`);
    expect(en.headers.get('location')).toBe(`/en/motors/${TOP}-new?sort=price_asc`);
    // The editor's own old address leads to the new place.
    const admin302 = await admin.get(`/en/admin/categories/motors/${TOP}/${CHILD}`);
    expect(admin302.headers.get('location')).toBe(`/en/admin/categories/motors/${TOP}-new/${CHILD}`);
  });

  it('moves to another taxonomy once the ads figure is confirmed: old category and ad addresses answer 301, the sitemap follows', async () => {
    const path = `/en/admin/categories/motors/${TOP}-new`;
    const property = taxonomyId('property');
    const asked = await admin.post(path, { intent: 'move', target: `t:${property}` });
    expect(asked.status).toBe(409);
    expect(category(`${TOP}-new`)?.taxonomy_id).toBe(taxonomyId('motors'));
    const moved = await admin.post(path, { intent: 'move', target: `t:${property}`, confirmed: '1' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe(`/en/admin/categories/property/${TOP}-new`);
    expect(category(CHILD)?.taxonomy_id).toBe(property);
    expect(query<{ taxonomy_id: number }>('select taxonomy_id from ads where id = ?', adId)[0]?.taxonomy_id).toBe(
      property,
    );

    const visitor = browser();
    const oldCategory = await visitor.get(`/motors/${CHILD}`);
    expect(oldCategory.status).toBe(301);
    expect(oldCategory.headers.get('location')).toBe(`/property/${CHILD}`);
    const oldAd = await visitor.get(`/motors/${CHILD}/test-dinghy-${adId}`);
    expect(oldAd.status).toBe(301);
    expect(oldAd.headers.get('location')).toBe(`/property/${CHILD}/test-dinghy-${adId}`);
    expect((await visitor.get(`/property/${CHILD}/test-dinghy-${adId}`)).status).toBe(200);

    const catalog = await (await visitor.get('/sitemaps/catalog.xml')).text();
    expect(catalog).toContain(`/property/${CHILD}`);
    expect(catalog).not.toContain(`/motors/${CHILD}`);
  });

  it('switches a category off with its figure confirmed: its page and its ads’ pages leave the site', async () => {
    const path = `/en/admin/categories/property/${TOP}-new/${CHILD}`;
    const asked = await admin.post(path, { intent: 'deactivate' });
    expect(asked.status).toBe(409);
    expect((await admin.post(path, { intent: 'deactivate', confirmed: '1' })).status).toBe(302);
    expect(category(CHILD)?.active).toBe(0);
    expect((await browser().get(`/property/${CHILD}`)).status).toBe(404);
    expect((await admin.post(path, { intent: 'activate' })).status).toBe(302);
    expect((await browser().get(`/property/${CHILD}`)).status).toBe(200);
  });

  it('needs update-categories for changes and the attributes page, update-taxonomies for a taxonomy’s attributes', async () => {
    const viewer = await staffWith(['view-categories']);
    expect((await viewer.get('/en/admin/categories/motors')).status).toBe(200);
    expect((await viewer.get('/en/admin/taxonomies')).status).toBe(200);
    const refused = await viewer.post('/en/admin/categories/motors', {
      intent: 'create',
      name_ar: 'س',
      name_en: 'C',
      slug: `rt-refused-${RUN}`,
    });
    expect(refused.status).toBe(403);
    expect(category(`rt-refused-${RUN}`)).toBeUndefined();
    expect((await viewer.get(`/en/admin/categories/property/${TOP}-new/attributes`)).status).toBe(403);
    expect((await viewer.get(`/en/admin/taxonomies/${taxonomyId('motors')}/attributes`)).status).toBe(403);
    const editor = await staffWith(['view-categories', 'update-categories']);
    expect((await editor.get(`/en/admin/categories/property/${TOP}-new/attributes`)).status).toBe(200);
    expect((await editor.get(`/en/admin/taxonomies/${taxonomyId('motors')}/attributes`)).status).toBe(403);
    const member = await staffWith([]);
    expect((await member.get('/en/admin/categories/motors')).status).toBe(404);
  });
});
