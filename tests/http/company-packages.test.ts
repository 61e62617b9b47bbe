// Packages granted to companies on the built server (docs/product/back-office.md, "Packages"): the
// grant page's company form (packages for companies only, refusals in words, nothing written), the
// company's page in the back office with its packages and what is left of them, and a member of
// the company whose allowance the company's package raises.
import { beforeAll, describe, expect, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

const RUN = `cp${Date.now().toString(36)}`;
const SLUG = `dealer-${RUN}`;
const GRANT = '/en/admin/packages/grant?holder=company';
const text = async (res: Response) => (await res.text()).replace(/&#x27;|&#39;/g, "'");

const PACKAGE_FORM = {
  intent: 'save',
  name_ar: `معارض ${RUN}`,
  name_en: `Dealers ${RUN}`,
  description_ar: '',
  description_en: '',
  price: '900',
  currency: 'LYD',
  duration_days: '30',
  max_active_ads: '20',
  featured_ads: '4',
  reposts: '6',
  audience: 'company',
  active: 'on',
};

const packageId = (nameEn: string) =>
  query<{ id: number }>('select id from packages where name_en = ?', nameEn)[0]?.id as number;

describe('packages granted to companies', () => {
  let admin: Browser;
  let agent: { b: Browser; email: string; id: string };
  let companyId: number;
  beforeAll(async () => {
    admin = browser();
    expect((await admin.post('/en/login', { login: 'admin@souq.test', password: 'password123' })).status).toBe(302);
    const b = browser();
    const email = `agent-${RUN}@example.ly`;
    await registerAndSignIn(b, { name: 'Agent', email, password: 'packages-passphrase' });
    const id = query<{ id: string }>('select id from users where email = ?', email)[0]?.id as string;
    query(
      'update users set phone_number = ?, phone_number_verified = 1 where id = ? returning id',
      testPhoneNumber(),
      id,
    );
    agent = { b, email, id };
    expect((await admin.post('/en/admin/packages/new', PACKAGE_FORM)).status).toBe(302);
    expect(
      (
        await admin.post('/en/admin/packages/new', {
          ...PACKAGE_FORM,
          name_en: `Members ${RUN}`,
          audience: 'individual',
        })
      ).status,
    ).toBe(302);
    const created = await admin.post('/en/admin/companies/new', {
      intent: 'save',
      slug: SLUG,
      name_ar: 'معرض الباقات',
      name_en: `Package Motors ${RUN}`,
    });
    expect(created.status).toBe(302);
    companyId = query<{ id: number }>('select id from companies where slug = ?', SLUG)[0]?.id as number;
    const added = await admin.post(`/en/admin/companies/${companyId}`, {
      intent: 'add-member',
      login: email,
      role: 'agent',
    });
    expect(added.status).toBe(302);
  });

  const form = (over: Record<string, string> = {}) => ({
    holder: 'company',
    company: SLUG,
    package_id: String(packageId(PACKAGE_FORM.name_en)),
    method: 'offline',
    reference: `CASH-${RUN}`,
    paid_amount: '900',
    paid_currency: 'LYD',
    ...over,
  });

  it('offers only packages for companies on the company form, in both languages', async () => {
    const en = await text(await admin.get(`/en/admin/packages/grant?holder=company&company=${SLUG}`));
    expect(en).toContain(PACKAGE_FORM.name_en);
    expect(en).not.toContain(`Members ${RUN}`);
    expect(en).toContain(`value="${SLUG}"`);
    expect(en).toContain('To a company');
    const members = await text(await admin.get('/en/admin/packages/grant'));
    expect(members).toContain(`Members ${RUN}`);
    expect(members).not.toContain(PACKAGE_FORM.name_en);
    const ar = await text(await admin.get(`/admin/packages/grant?holder=company`));
    expect(ar).toContain(PACKAGE_FORM.name_ar);
    expect(ar).toContain('إلى شركة');
  });

  it('refuses a member package, an unknown company and a malformed address name, writing nothing', async () => {
    const before = query('select count(*) as n from subscriptions');
    const forMembers = await admin.post(
      GRANT,
      form({ package_id: String(packageId(`Members ${RUN}`)), reference: `A-${RUN}` }),
    );
    expect(forMembers.status).toBe(422);
    expect(await text(forMembers)).toContain('This package is for members; grant it to a member.');
    const nobody = await admin.post(GRANT, form({ company: `nobody-${RUN}`, reference: `B-${RUN}` }));
    expect(nobody.status).toBe(422);
    expect(await text(nobody)).toContain('No company has this address name');
    const malformed = await admin.post(
      '/admin/packages/grant?holder=company',
      form({ company: 'Not a slug!', reference: `C-${RUN}` }),
    );
    expect(malformed.status).toBe(422);
    expect(await text(malformed)).toContain('اسم الشركة في العنوان');
    expect(query('select count(*) as n from subscriptions')).toEqual(before);
    expect(query('select count(*) as n from payments where reference like ?', `_-${RUN}`)).toEqual([{ n: 0 }]);
  });

  it('grants the package to the company and shows it on the company page with what is left', async () => {
    const res = await admin.post(GRANT, form());
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/companies/${companyId}#packages`);
    expect(query('select user_id, max_active_ads from subscriptions where company_id = ?', companyId)).toEqual([
      { user_id: null, max_active_ads: 20 },
    ]);
    expect(query('select company_id, user_id from payments where reference = ?', `CASH-${RUN}`)).toEqual([
      { company_id: companyId, user_id: null },
    ]);
    expect(
      query<{ action: string }>(
        "select action from revisions where subject_type = 'company' and subject_id = ? order by id",
        String(companyId),
      ).map((r) => r.action),
    ).toContain('grant-package');
    const again = await admin.post(GRANT, form());
    expect(again.status).toBe(422);
    expect(await text(again)).toContain('This payment reference was already recorded.');

    const page = await text(await admin.get(`/en/admin/companies/${companyId}`));
    expect(page).toContain(`${PACKAGE_FORM.name_en}: until`);
    expect(page).toContain('Active ads +20 · featured 4 of 4 left · reposts 6 of 6 left');
    expect(page).toContain(`/en/admin/packages/grant?holder=company&amp;company=${SLUG}`);
    const ar = await text(await admin.get(`/admin/companies/${companyId}`));
    expect(ar).toContain('إعلانات نشطة إضافية 20');
    const list = await text(await admin.get(`/en/admin/packages/subscriptions?q=${SLUG}`));
    expect(list).toContain(`Package Motors ${RUN}`);
    expect(list).toContain(`CASH-${RUN}`);
  });

  it("raises the company's members' allowance", async () => {
    const profile = await text(await agent.b.get('/en/profile'));
    expect(profile).toContain('Your allowance now: 25 active ads');
    expect(profile).toContain(`Your company’s package (Package Motors ${RUN}), shared with its members`);
    expect(profile).toContain('Featured ads: 4 of 4 left');
    const ar = await text(await agent.b.get('/profile'));
    expect(ar).toContain('باقة شركتك (معرض الباقات)');
  });
});
