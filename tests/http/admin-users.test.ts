// The members and roles screens on the built server (docs/product/back-office.md, "Members", "Roles
// and permissions"): the list and its search, a member's page, ban and unban end to end (the
// member's session ends, their ad leaves the public pages and comes back), bad input answered 4xx
// changing nothing, and the permissions screen's forms. Guards per role are the admin matrix's.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { placeToyota, publish } from '../support/ads.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

const base = inject('baseUrl');
const RUN = `u${Date.now().toString(36)}`;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

async function register(name: string): Promise<{ b: Browser; email: string; id: string }> {
  const b = browser();
  const email = `${name.toLowerCase()}-${RUN}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name, email, password: 'members-passphrase' });
  const id = query<{ id: string }>('select id from users where email = ?', email)[0]?.id as string;
  query(
    'update users set phone_number = ?, phone_number_verified = 1 where id = ? returning id',
    testPhoneNumber(),
    id,
  );
  return { b, email, id };
}

function postEntries(b: Browser, pathname: string, entries: [string, string][]) {
  return fetch(base + pathname, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'user-agent': BROWSER_UA,
      cookie: b.cookieHeader(),
      'x-forwarded-for': b.ip,
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(entries).toString(),
  });
}

const anonymous = (path: string) => fetch(base + path, { headers: { 'user-agent': BROWSER_UA }, redirect: 'manual' });

describe('back-office members', () => {
  let admin: Browser;
  let moderator: Browser;
  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
    moderator = await signIn('moderator@souq.test');
  });

  it('lists and searches members; odd parameters are ignored, never an error', async () => {
    const { id } = await register(`Listed${RUN}`);
    const page = await admin.get(`/en/admin/users?q=${encodeURIComponent(`listed${RUN}`)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`/en/admin/users/${id}`);
    for (const odd of [
      '?sort=drop table&dir=sideways&role=pope&banned=maybe',
      '?after=not-a-cursor',
      `?after=${Buffer.from('["x", 1]').toString('base64url')}`,
      `?q=${'%25'.repeat(300)}`,
      '?q=%5C_%25',
    ]) {
      const res = await admin.get(`/en/admin/users${odd}`);
      expect(res.status, odd).toBe(200);
    }
    const none = await (await admin.get('/en/admin/users?q=zzqqxxnobody')).text();
    expect(none).toContain('Nothing matches this search or these filters.');
  });

  it('shows a member; an unknown or malformed id is 404', async () => {
    const { id } = await register(`Shown${RUN}`);
    const page = await moderator.get(`/en/admin/users/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Shown${RUN}`);
    // The moderator may ban but not change access: no access form.
    expect(html).toContain('Ban this member');
    expect(html).not.toContain('Save roles and permissions');
    expect((await admin.get('/en/admin/users/no-such-member')).status).toBe(404);
    expect((await admin.get('/en/admin/users/bad%20id%3B')).status).toBe(404);
  });

  it('a ban ends the member’s session, hides their ad and refuses sign-in; the unban brings the ad back', async () => {
    const seller = await register(`Seller${RUN}`);
    const ad = await placeToyota(seller.b, `Toyota Corolla ${RUN} banned seller`);
    publish(ad.id);
    expect((await anonymous(ad.url)).status).toBe(200);
    const search = `/en/posts?q=${encodeURIComponent(RUN)}`;
    expect(await (await anonymous(search)).text()).toContain(`/${ad.slug}-${ad.id}`);
    expect((await seller.b.get('/en/profile')).status).toBe(200);

    // Bad input: 4xx, nothing changes.
    const path = `/en/admin/users/${seller.id}`;
    const bad: Record<string, string>[] = [
      { intent: 'ban' },
      { intent: 'ban', reason: ' ' },
      { intent: 'ban', reason: 'x'.repeat(501) },
    ];
    for (const form of bad) {
      const res = await moderator.post(path, form);
      expect(res.status, JSON.stringify(form)).toBe(422);
    }
    expect((await moderator.post(path, { intent: 'launch' })).status).toBe(400);
    expect((await moderator.post(path, { intent: 'unban' })).status).toBe(422);
    expect(
      query<{ banned_at: string | null }>('select banned_at from users where id = ?', seller.id)[0]?.banned_at,
    ).toBeNull();

    const ban = await moderator.post(path, { intent: 'ban', reason: 'Selling stolen cars' });
    expect(ban.status).toBe(302);
    expect(ban.headers.get('location')).toBe(path);
    // The session is gone: the profile now asks to sign in.
    const profile = await seller.b.get('/en/profile');
    expect(profile.status).toBe(302);
    expect(profile.headers.get('location')).toMatch(/^\/en\/login/);
    expect((await anonymous(ad.url)).status).toBe(404);
    expect((await anonymous(`/en/users/${seller.id}`)).status).toBe(404);
    const listing = await (await anonymous(search)).text();
    expect(listing).not.toContain(`/${ad.slug}-${ad.id}`);
    const again = await browser().post('/en/login', { login: seller.email, password: 'members-passphrase' });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain('This account is suspended');
    // Staff still open the ad.
    expect((await moderator.get(ad.url)).status).toBe(200);
    const detail = await (await moderator.get(path)).text();
    expect(detail).toContain('Selling stolen cars');
    expect(detail).toContain('Lift the ban');

    expect((await moderator.post(path, { intent: 'unban' })).status).toBe(302);
    expect((await anonymous(ad.url)).status).toBe(200);
    expect((await anonymous(`/en/users/${seller.id}`)).status).toBe(200);
    expect(await (await anonymous(search)).text()).toContain(`/${ad.slug}-${ad.id}`);
    expect((await browser().post('/en/login', { login: seller.email, password: 'members-passphrase' })).status).toBe(
      302,
    );
    const log = query<{ action: string; actor_id: string }>(
      "select action, actor_id from revisions where subject_type = 'user' and subject_id = ? order by id",
      seller.id,
    );
    expect(log.map((r) => r.action)).toEqual(['ban', 'unban']);
  });

  it('nobody bans themselves; only a super admin sets the super-admin flag', async () => {
    const me = query<{ id: string }>("select id from users where email = 'moderator@souq.test'")[0]?.id as string;
    const self = await moderator.post(`/en/admin/users/${me}`, { intent: 'ban', reason: 'Testing myself' });
    expect(self.status).toBe(422);
    expect(
      query<{ banned_at: string | null }>('select banned_at from users where id = ?', me)[0]?.banned_at,
    ).toBeNull();
    const { id } = await register(`Flag${RUN}`);
    expect((await moderator.post(`/en/admin/users/${id}`, { intent: 'super-admin', value: 'on' })).status).toBe(403);
    expect((await admin.post(`/en/admin/users/${id}`, { intent: 'super-admin', value: 'maybe' })).status).toBe(422);
    expect((await admin.post(`/en/admin/users/${id}`, { intent: 'super-admin', value: 'on' })).status).toBe(302);
    expect(
      query<{ is_super_admin: number }>('select is_super_admin from users where id = ?', id)[0]?.is_super_admin,
    ).toBe(1);
  });

  it('changes a member’s roles and permissions; unknown ones are refused', async () => {
    const { id } = await register(`Access${RUN}`);
    const support = query<{ id: number }>("select id from roles where name = 'support'")[0]?.id as number;
    const path = `/en/admin/users/${id}`;
    expect(
      (
        await postEntries(admin, path, [
          ['intent', 'access'],
          ['permissions', 'rule-everything'],
        ])
      ).status,
    ).toBe(422);
    expect(
      (
        await postEntries(admin, path, [
          ['intent', 'access'],
          ['roles', '99999999'],
        ])
      ).status,
    ).toBe(422);
    expect(query('select 1 from user_roles where user_id = ?', id)).toEqual([]);
    const res = await postEntries(admin, path, [
      ['intent', 'access'],
      ['roles', String(support)],
      ['permissions', 'view-banners'],
    ]);
    expect(res.status).toBe(302);
    expect(
      query<{ name: string }>(
        'select r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = ?',
        id,
      ),
    ).toEqual([{ name: 'support' }]);
    // The confirmation of a phone number: a bad one is 422; a good one is stored confirmed.
    expect((await admin.post(path, { intent: 'confirm-phone', phone: '12' })).status).toBe(422);
    const number = testPhoneNumber();
    expect((await admin.post(path, { intent: 'confirm-phone', phone: number })).status).toBe(302);
    expect(query<{ phone_number: string }>('select phone_number from users where id = ?', id)[0]?.phone_number).toBe(
      number,
    );
  });
});

describe('back-office roles', () => {
  let admin: Browser;
  beforeAll(async () => {
    admin = await signIn('admin@souq.test');
  });

  it('shows the matrix; creates, renames and deletes a role with the holders count; bad input is 4xx', async () => {
    const page = await admin.get('/en/admin/permissions');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ban and unban members');
    const name = `role-${RUN}`;
    for (const bad of ['', 'Has Spaces', 'ü-nicode', 'x', 'a'.repeat(61), 'moderator']) {
      const res = await admin.post('/en/admin/permissions', { intent: 'create', name: bad });
      expect(res.status, bad).toBe(422);
    }
    expect((await admin.post('/en/admin/permissions', { intent: 'create', name })).status).toBe(302);
    const id = query<{ id: number }>('select id from roles where name = ?', name)[0]?.id as number;
    expect(id).toBeGreaterThan(0);
    // The matrix: this role only (a role created since the form was shown is left alone).
    expect(
      (
        await postEntries(admin, '/en/admin/permissions', [
          ['intent', 'matrix'],
          ['roles', String(id)],
          ['grants', `${id}:nope-nope`],
        ])
      ).status,
    ).toBe(422);
    const saved = await postEntries(admin, '/en/admin/permissions', [
      ['intent', 'matrix'],
      ['roles', String(id)],
      ['grants', `${id}:view-revisions`],
    ]);
    expect(saved.status).toBe(302);
    expect(
      query<{ name: string }>(
        'select p.name from role_permissions rp join permissions p on p.id = rp.permission_id where rp.role_id = ?',
        id,
      ),
    ).toEqual([{ name: 'view-revisions' }]);
    expect(
      (await admin.post('/en/admin/permissions', { intent: 'rename', id: String(id), name: `${name}-x` })).status,
    ).toBe(302);
    const { id: holder } = await register(`Holder${RUN}`);
    query('insert into user_roles (user_id, role_id) values (?, ?) returning user_id', holder, id);
    const listed = await (await admin.get('/en/admin/permissions')).text();
    expect(listed).toContain(`/en/admin/users/${holder}`);
    expect(listed).toContain('1 member holds it');
    // The confirmation said 0 holders; there is 1: refused, nothing deleted.
    expect((await admin.post('/en/admin/permissions', { intent: 'delete', id: String(id), holders: '0' })).status).toBe(
      422,
    );
    expect(
      (await admin.post('/en/admin/permissions', { intent: 'delete', id: String(id), holders: 'lots' })).status,
    ).toBe(422);
    expect((await admin.post('/en/admin/permissions', { intent: 'delete', id: String(id), holders: '1' })).status).toBe(
      302,
    );
    expect(query('select id from roles where id = ?', id)).toEqual([]);
    expect(query('select 1 from user_roles where user_id = ?', holder)).toEqual([]);
    expect(
      (await admin.post('/en/admin/permissions', { intent: 'delete', id: '2147483647', holders: '0' })).status,
    ).toBe(404);
  });
});
