// The packages screens on the built server (docs/product/back-office.md, "Packages"): create, edit,
// switch off and delete (refused once granted), grant to a member with a payment reference, the
// subscriptions list, the guards of each change, the member's "My package" on /profile, the feature
// button of a package's featured ad, and the package-expiring notification's words.
import { beforeAll, describe, expect, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

const RUN = `p${Date.now().toString(36)}`;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

async function register(name: string): Promise<{ b: Browser; email: string; id: string }> {
  const b = browser();
  const email = `${name.toLowerCase()}-${RUN}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name, email, password: 'packages-passphrase' });
  const id = query<{ id: string }>('select id from users where email = ?', email)[0]?.id as string;
  query(
    'update users set phone_number = ?, phone_number_verified = 1 where id = ? returning id',
    testPhoneNumber(),
    id,
  );
  return { b, email, id };
}

const PACKAGE_FORM = {
  intent: 'save',
  name_ar: `ذهبية ${RUN}`,
  name_en: `Gold ${RUN}`,
  description_ar: '',
  description_en: '',
  price: '٢٠٠',
  currency: 'LYD',
  duration_days: '30',
  max_active_ads: '10',
  featured_ads: '1',
  reposts: '3',
  audience: 'individual',
  active: 'on',
};

const packageId = (nameEn: string) =>
  query<{ id: number }>('select id from packages where name_en = ?', nameEn)[0]?.id as number;
const text = async (res: Response) => (await res.text()).replace(/&#x27;|&#39;/g, "'");

describe('the packages screens', () => {
  let admin: Browser;
  let support: Browser;
  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
    const s = await register('Support');
    query(
      "insert into user_roles (user_id, role_id) select ?, id from roles where name = 'support' returning user_id",
      s.id,
    );
    support = s.b;
  });

  it('creates a package from the form, with Arabic digits, and lists it', async () => {
    const res = await admin.post('/en/admin/packages/new', PACKAGE_FORM);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/admin/packages');
    const id = packageId(PACKAGE_FORM.name_en);
    expect(query('select price, max_active_ads, active from packages where id = ?', id)).toEqual([
      { price: 200, max_active_ads: 10, active: 1 },
    ]);
    expect(
      query('select action from revisions where subject_type = ? and subject_id = ?', 'package', String(id)),
    ).toEqual([{ action: 'create' }]);
    const list = await admin.get(`/en/admin/packages?q=${encodeURIComponent(RUN)}`);
    expect(list.status).toBe(200);
    const html = await text(list);
    expect(html).toContain(PACKAGE_FORM.name_en);
    expect(html).toContain('+10 active ads');
    const ar = await text(await admin.get(`/admin/packages?q=${encodeURIComponent(RUN)}`));
    expect(ar).toContain(PACKAGE_FORM.name_ar);
    expect(ar).toContain('الباقات');
  });

  it('refuses a bad form with translated words and writes nothing', async () => {
    const before = query('select count(*) as n from packages');
    const res = await admin.post('/en/admin/packages/new', {
      ...PACKAGE_FORM,
      name_en: '',
      duration_days: '0',
      audience: 'everyone',
      price: 'free',
    });
    expect(res.status).toBe(422);
    const html = await text(res);
    expect(html).toContain('The English name field is required');
    expect(html).toContain('The duration field must be at least 1');
    expect(html).toContain('The selected audience is invalid');
    expect(html).toContain('The price field must be a whole number');
    expect(query('select count(*) as n from packages')).toEqual(before);
    // An unknown package and a malformed id are 404; an unknown intent is 400.
    expect((await admin.get('/en/admin/packages/987654321')).status).toBe(404);
    expect((await admin.get('/en/admin/packages/abc')).status).toBe(404);
    expect((await admin.post('/en/admin/packages/new', { intent: 'explode' })).status).toBe(400);
  });

  it('edits a package and switches it off and on', async () => {
    const id = packageId(PACKAGE_FORM.name_en);
    const edit = await admin.post(`/en/admin/packages/${id}`, { ...PACKAGE_FORM, price: '250' });
    expect(edit.status).toBe(302);
    expect(query('select price from packages where id = ?', id)).toEqual([{ price: 250 }]);
    const page = await text(await admin.get(`/en/admin/packages/${id}`));
    expect(page).toContain('Switch off');
    expect((await admin.post(`/en/admin/packages/${id}`, { intent: 'deactivate' })).status).toBe(302);
    expect(query('select active from packages where id = ?', id)).toEqual([{ active: 0 }]);
    expect((await admin.post(`/en/admin/packages/${id}`, { intent: 'activate' })).status).toBe(302);
    expect(query('select active from packages where id = ?', id)).toEqual([{ active: 1 }]);
    const actions = query<{ action: string }>(
      'select action from revisions where subject_type = ? and subject_id = ? order by id',
      'package',
      String(id),
    ).map((r) => r.action);
    expect(actions).toEqual(['create', 'edit', 'deactivate', 'activate']);
  });

  it('lets staff who may only view packages see them, and refuses their changes', async () => {
    const id = packageId(PACKAGE_FORM.name_en);
    const list = await text(await support.get(`/en/admin/packages?q=${encodeURIComponent(RUN)}`));
    expect(list).toContain(PACKAGE_FORM.name_en);
    expect(list).not.toContain('New package');
    const page = await support.get(`/en/admin/packages/${id}`);
    expect(page.status).toBe(200);
    expect(await text(page)).toContain('changing it needs the right to update packages');
    expect((await support.get('/en/admin/packages/new')).status).toBe(403);
    expect((await support.get('/en/admin/packages/grant')).status).toBe(403);
    expect((await support.post(`/en/admin/packages/${id}`, { ...PACKAGE_FORM, price: '1' })).status).toBe(403);
    expect((await support.post(`/en/admin/packages/${id}`, { intent: 'delete' })).status).toBe(403);
    expect(query('select price from packages where id = ?', id)).toEqual([{ price: 250 }]);
  });

  describe('granting', () => {
    let buyer: { b: Browser; email: string; id: string };
    beforeAll(async () => {
      buyer = await register('Buyer');
    });

    it('shows a member without a package what free accounts get', async () => {
      const html = await text(await buyer.b.get('/en/profile'));
      expect(html).toContain('My package');
      expect(html).toContain('You have no package.');
      expect(html).toContain('Free accounts may have 5 active ads.');
    });

    it('grants a package to a member found by email, with the payment', async () => {
      const id = packageId(PACKAGE_FORM.name_en);
      const form = {
        member: buyer.email.toUpperCase(),
        package_id: String(id),
        method: 'bank-transfer',
        reference: `TR-${RUN}`,
        paid_amount: '250',
        paid_currency: 'LYD',
      };
      const res = await admin.post('/en/admin/packages/grant', form);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/en/admin/packages/subscriptions');
      expect(
        query(
          'select max_active_ads, featured_remaining, reposts_remaining from subscriptions where user_id = ?',
          buyer.id,
        ),
      ).toEqual([{ max_active_ads: 10, featured_remaining: 1, reposts_remaining: 3 }]);
      // The same reference again, and a member nobody is: refused with words, nothing granted.
      const again = await admin.post('/en/admin/packages/grant', form);
      expect(again.status).toBe(422);
      expect(await text(again)).toContain('This payment reference was already recorded.');
      const nobody = await admin.post('/en/admin/packages/grant', {
        ...form,
        member: 'nobody-here@example.ly',
        reference: 'X',
      });
      expect(nobody.status).toBe(422);
      expect(await text(nobody)).toContain('No member has this email address or phone number.');
      expect(query('select count(*) as n from subscriptions where user_id = ?', buyer.id)).toEqual([{ n: 1 }]);

      const list = await text(
        await admin.get(`/en/admin/packages/subscriptions?q=${encodeURIComponent(buyer.email)}&state=current`),
      );
      expect(list).toContain(PACKAGE_FORM.name_en);
      expect(list).toContain(`TR-${RUN}`);
      expect(list).toContain('Running');
      const none = await text(
        await admin.get(`/en/admin/packages/subscriptions?q=${encodeURIComponent(buyer.email)}&state=ended`),
      );
      expect(none).not.toContain(`TR-${RUN}`);
    });

    it('refuses to delete the package now that it was granted', async () => {
      const id = packageId(PACKAGE_FORM.name_en);
      const res = await admin.post(`/en/admin/packages/${id}`, { intent: 'delete' });
      expect(res.status).toBe(422);
      expect(await text(res)).toContain(
        'This package was granted 1 time and cannot be deleted. Switch it off instead.',
      );
      expect(query('select count(*) as n from packages where id = ?', id)).toEqual([{ n: 1 }]);
    });

    it('shows the member their package and what is left of it, in both languages', async () => {
      const en = await text(await buyer.b.get('/en/profile'));
      expect(en).toContain(PACKAGE_FORM.name_en);
      expect(en).toContain('10 more active ads');
      expect(en).toContain('Featured ads: 1 of 1 left');
      expect(en).toContain('Reposts: 3 of 3 left');
      expect(en).toContain('Your allowance now: 15 active ads');
      const ar = await text(await buyer.b.get('/profile'));
      expect(ar).toContain(PACKAGE_FORM.name_ar);
      expect(ar).toContain('باقتي');
      expect(ar).toContain('حدّك الآن: 15 إعلانًا نشطًا');
    });

    it('features a published ad with the package, once', async () => {
      const cat = query<{ id: number }>("select id from categories where slug = 'toyota'")[0]?.id as number;
      const tax = query<{ id: number }>("select id from taxonomies where slug = 'motors'")[0]?.id as number;
      const city = query<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id as number;
      const now = new Date().toISOString();
      const [ad] = query<{ id: number }>(
        `insert into ads (user_id, taxonomy_id, category_id, slug, title, description, currency, price_type, city_id, status, published_at, bumped_at, expires_at, created_at, updated_at)
         values (?, ?, ?, 'featured-corolla', 'Featured Corolla', 'A clean car to feature with a package.', 'LYD', 'on-request', ?, 'published', ?, ?, ?, ?, ?) returning id`,
        buyer.id,
        tax,
        cat,
        city,
        now,
        now,
        new Date(Date.now() + 30 * 86_400_000).toISOString(),
        now,
        now,
      );
      const path = `/en/profile/posts/motors/toyota/featured-corolla-${ad?.id}`;
      const page = await text(await buyer.b.get(path));
      expect(page).toContain('Feature this ad');
      expect(page).toContain('Feature it for 7 days');
      const res = await buyer.b.post(path, { intent: 'feature' });
      expect(res.status).toBe(302);
      expect(query('select featured_until is not null as f from ads where id = ?', ad?.id as number)).toEqual([
        { f: 1 },
      ]);
      expect(query('select featured_remaining from subscriptions where user_id = ?', buyer.id)).toEqual([
        { featured_remaining: 0 },
      ]);
      const again = await buyer.b.post(path, { intent: 'feature' });
      expect(again.status).toBe(422);
      expect(await text(again)).toContain('Your packages have no featured ads left.');
      // Someone else cannot feature it.
      const stranger = await register('Stranger');
      expect((await stranger.b.post(path, { intent: 'feature' })).status).toBe(404);
    });

    it('words the package-expiring notification and links it to My package', async () => {
      query(
        "insert into notifications (user_id, type, data) values (?, 'package-expiring', ?) returning id",
        buyer.id,
        JSON.stringify({
          subscription_id: 1,
          name_ar: PACKAGE_FORM.name_ar,
          name_en: PACKAGE_FORM.name_en,
          expires_at: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString(),
          path: '/profile#package',
        }),
      );
      const en = await text(await buyer.b.get('/en/notifications'));
      expect(en).toContain('Your package ends in 3 days');
      expect(en).toContain(PACKAGE_FORM.name_en);
      expect(en).toContain('href="/en/profile#package"');
      const ar = await text(await buyer.b.get('/notifications'));
      expect(ar).toContain('تنتهي باقتك خلال 3 أيام');
      expect(ar).toContain(PACKAGE_FORM.name_ar);
    });
  });
});
