// Route × role matrix (docs/product/accounts-and-roles.md): every built page and API route, for
// every kind of visitor, on the real server. Grows with every route: add the route and its expected
// statuses here.

import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

type Role = 'visitor' | 'member' | 'moderator' | 'super-admin' | 'one-permission';
const ROLES: Role[] = ['visitor', 'member', 'moderator', 'super-admin', 'one-permission'];

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/en/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
    body: new URLSearchParams({ login: email, password }).toString(),
  });
  expect(res.status).toBe(302);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const cookies: Record<Role, string> = {
  visitor: '',
  member: '',
  moderator: '',
  'super-admin': '',
  'one-permission': '',
};

beforeAll(async () => {
  cookies.member = await signIn('user@souq.test', 'password123');
  cookies.moderator = await signIn('moderator@souq.test', 'password123');
  cookies['super-admin'] = await signIn('admin@souq.test', 'password123');
  // A member holding exactly one direct permission, granted in the server's own database.
  const email = `one-permission-${Date.now()}@example.ly`;
  const reg = await fetch(`${base}/en/register`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
    body: new URLSearchParams({
      name: 'Staff One',
      login: email,
      password: 'one-permission',
      password_confirmation: 'one-permission',
      terms: 'on',
    }).toString(),
  });
  expect(reg.status).toBe(302);
  const db = new DatabaseSync(path.join(dataDir, 'souq.db'), { timeout: 5000 });
  // What opening the mailed confirmation link does: an unconfirmed email cannot sign in.
  db.prepare('update users set email_verified = 1 where email = ?').run(email);
  db.prepare(
    "insert into user_permissions (user_id, permission_id) select u.id, p.id from users u, permissions p where u.email = ? and p.name = 'view-banners'",
  ).run(email);
  db.close();
  cookies['one-permission'] = await signIn(email, 'one-permission');
});

type Expect = number | { status: number; location: string };
const all = (e: Expect): Record<Role, Expect> => Object.fromEntries(ROLES.map((r) => [r, e])) as Record<Role, Expect>;
const guest = (path: string): Record<Role, Expect> => ({
  ...all({ status: 302, location: path.startsWith('/en') ? '/en' : '/' }),
  visitor: 200,
});

const PAGES: [string, Record<Role, Expect>][] = [
  ['/', all(200)],
  ['/en', all(200)],
  ['/faq', all(200)],
  ['/en/about', all(200)],
  ['/terms', all(200)],
  ['/privacy', all(200)],
  ['/support', all(200)],
  ['/contact', all(200)],
  ['/motors', all(200)],
  ['/en/motors/cars', all(200)],
  ['/posts/map', all(200)],
  ['/en/posts/map?category=cars&city=tripoli', all(200)],
  ['/login', guest('/login')],
  ['/en/login', guest('/en/login')],
  ['/register', guest('/register')],
  ['/en/register', guest('/en/register')],
  ['/account/forget-password', all(200)],
  ['/account/reset-password', all(200)],
  ['/en/account/email-verification', all(200)],
  [
    '/account/phone-verification',
    { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Faccount%2Fphone-verification' } },
  ],
  ['/place-your-ad', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fplace-your-ad' } }],
  [
    '/en/place-your-ad/motors/cars/toyota',
    {
      ...all(200),
      visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fplace-your-ad%2Fmotors%2Fcars%2Ftoyota' },
    },
  ],
  [
    '/en/place-your-ad/motors/toyota',
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fplace-your-ad%2Fmotors%2Ftoyota' } },
  ],
  ['/en/motors/toyota/no-such-ad-999999999', all(404)],
  [
    '/en/profile/posts',
    { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fprofile%2Fposts' } },
  ],
  [
    '/en/profile/posts/motors/toyota/x-999999999',
    {
      ...all(404),
      visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fprofile%2Fposts%2Fmotors%2Ftoyota%2Fx-999999999' },
    },
  ],
  ...['edit', 'repost'].map(
    (page) =>
      [
        `/en/profile/posts/motors/toyota/x-999999999/${page}`,
        {
          ...all(404),
          visitor: {
            status: 302,
            location: `/en/login?redirect=%2Fen%2Fprofile%2Fposts%2Fmotors%2Ftoyota%2Fx-999999999%2F${page}`,
          },
        },
      ] as [string, Record<Role, Expect>],
  ),
  ['/en/users/no-such-member', all(404)],
  ['/notifications', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fnotifications' } }],
  [
    '/en/notifications',
    { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fnotifications' } },
  ],
  [
    '/en/notifications?before=abc',
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fnotifications%3Fbefore%3Dabc' } },
  ],
  ['/searches', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fsearches' } }],
  ['/en/searches', { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fsearches' } }],
  // A token that is not one of ours; the valid and expired ones: tests/http/saved-searches.test.ts.
  ['/unsubscribe/not-a-token', all(404)],
  ['/en/unsubscribe/eyJ1IjoieCJ9.forged', all(404)],
  ['/chats', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fchats' } }],
  ['/en/chats', { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats' } }],
  [
    '/en/chats?archived=1',
    { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%3Farchived%3D1' } },
  ],
  [
    '/en/chats?before=abc',
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%3Fbefore%3Dabc' } },
  ],
  ['/chats/999999999', { ...all(404), visitor: { status: 302, location: '/login?redirect=%2Fchats%2F999999999' } }],
  ['/en/chats/abc', { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%2Fabc' } }],
  [
    '/en/chats/new/999999999',
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%2Fnew%2F999999999' } },
  ],
  ['/favorites', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Ffavorites' } }],
  ['/en/favorites', { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Ffavorites' } }],
  [
    '/en/favorites?before=abc',
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Ffavorites%3Fbefore%3Dabc' } },
  ],
  ['/logout', all({ status: 302, location: '/' })],
  ['/profile', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fprofile' } }],
  ['/en/profile', { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fprofile' } }],
  ['/admin', { ...all(200), visitor: { status: 302, location: '/login?redirect=%2Fadmin' }, member: 404 }],
  ['/en/admin', { ...all(200), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fadmin' }, member: 404 }],
  [
    '/admin/posts',
    {
      ...all(200),
      visitor: { status: 302, location: '/login?redirect=%2Fadmin%2Fposts' },
      member: 404,
      'one-permission': 403,
    },
  ],
  [
    '/en/admin/posts?status=published&reported=1',
    {
      ...all(200),
      visitor: {
        status: 302,
        location: '/en/login?redirect=%2Fen%2Fadmin%2Fposts%3Fstatus%3Dpublished%26reported%3D1',
      },
      member: 404,
      'one-permission': 403,
    },
  ],
  [
    '/en/admin/posts/999999999',
    {
      ...all(404),
      visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fadmin%2Fposts%2F999999999' },
      'one-permission': 403,
    },
  ],
];

const API: [string, Record<Role, Expect>][] = [
  ['/api/is-logged-in', all(200)],
  ['/api/taxonomies', all(200)],
  ['/api/cities', all(200)],
  ['/api/categories/cars/children', all(200)],
  ['/api/openapi.json', all(200)],
  ['/api/posts/map?bbox=30,10,34,16&zoom=7', all(200)],
  ['/api/posts/999999999/card', all(404)],
  ['/api/saved-searches', { ...all(200), visitor: 401 }],
  ['/api/chats', { ...all(200), visitor: 401 }],
  ['/api/chats?archived=1', { ...all(200), visitor: 401 }],
  ['/api/chats/999999999/messages?after=0', { ...all(404), visitor: 401 }],
  ['/api/favorites', { ...all(200), visitor: 401 }],
  ['/api/favorites?before=abc', { ...all(404), visitor: 401 }],
];

describe.each([...PAGES, ...API])('%s', (route, expected) => {
  it.each(ROLES)('as %s', async (role) => {
    const res = await fetch(base + route, {
      redirect: 'manual',
      headers: { cookie: cookies[role], 'user-agent': BROWSER },
    });
    const want = expected[role];
    if (typeof want === 'number') {
      expect(res.status).toBe(want);
    } else {
      expect(res.status).toBe(want.status);
      expect(res.headers.get('location')).toBe(want.location);
    }
  });
});

/**
 * Actions and API writes: a page form (same-origin post) or an API call (with the anti-forgery
 * cookie and header), for every role.
 */
const TOKEN = 'matrix-xsrf-token';
const ACTIONS: [string, Record<string, string>, Record<Role, Expect>][] = [
  [
    '/en/notifications',
    { intent: 'read', id: '999999999' },
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fnotifications' } },
  ],
  [
    '/notifications',
    { intent: 'read-all' },
    {
      ...all({ status: 302, location: '/notifications' }),
      visitor: { status: 302, location: '/login?redirect=%2Fnotifications' },
    },
  ],
  [
    '/searches',
    { intent: 'rename', id: '999999999', name: 'x' },
    { ...all(404), visitor: { status: 302, location: '/login?redirect=%2Fsearches' } },
  ],
  [
    '/en/searches',
    { intent: 'delete', id: '999999999', confirmed: '1' },
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fsearches' } },
  ],
  [
    '/en/searches',
    { intent: 'frequency', id: '1', frequency: 'hourly' },
    { ...all(422), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fsearches' } },
  ],
  ['/en/unsubscribe/eyJ1IjoieCJ9.forged', {}, all(404)],
  ['/api/saved-searches', { query: 'category=cars' }, { ...all(201), visitor: 401 }],
  ['/api/saved-searches/999999999/seen', {}, { ...all(404), visitor: 401 }],
  ['/api/saved-searches/999999999', { _method: 'PATCH', name: 'x' }, { ...all(404), visitor: 401 }],
  ['/api/saved-searches/999999999', { _method: 'DELETE' }, { ...all(404), visitor: 401 }],
  // One-click unsubscribe: the token is the authorisation, the same answer for everyone.
  ['/api/unsubscribe/eyJ1IjoieCJ9.forged', { 'List-Unsubscribe': 'One-Click' }, all(404)],
  // The heart's form: a visitor logs in and comes back to the page the heart was on.
  [
    '/en/favorites',
    { intent: 'add', ad: '999999999', back: '/en/posts' },
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fposts' } },
  ],
  [
    '/favorites',
    { intent: 'remove', ad: '999999999', back: '/posts' },
    { ...all({ status: 302, location: '/posts' }), visitor: { status: 302, location: '/login?redirect=%2Fposts' } },
  ],
  [
    '/favorites',
    { intent: 'add', ad: 'abc' },
    { ...all(422), visitor: { status: 302, location: '/login?redirect=%2Ffavorites' } },
  ],
  ['/api/favorites', { ad_id: '999999999' }, { ...all(404), visitor: 401 }],
  ['/api/favorites', { ad_id: 'abc' }, { ...all(422), visitor: 401 }],
  ['/api/favorites/999999999', { _method: 'DELETE' }, { ...all(204), visitor: 401 }],
  ['/api/favorites/abc', { _method: 'DELETE' }, all(404)],
  ['/api/broadcasting/auth', { socket_id: '1.2', channel_name: 'private-users.nobody' }, { ...all(403), visitor: 401 }],
  ['/api/broadcasting/auth', { socket_id: '1.2', channel_name: 'presence-chats.1' }, { ...all(403), visitor: 401 }],
  [
    '/en/chats/999999999',
    { intent: 'send', body: 'hello' },
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%2F999999999' } },
  ],
  [
    '/chats/999999999',
    { intent: 'block' },
    { ...all(404), visitor: { status: 302, location: '/login?redirect=%2Fchats%2F999999999' } },
  ],
  [
    '/en/chats/new/999999999',
    { intent: 'send', body: 'hello' },
    { ...all(404), visitor: { status: 302, location: '/en/login?redirect=%2Fen%2Fchats%2Fnew%2F999999999' } },
  ],
  ['/api/chats', { ad_id: '999999999', body: 'hello' }, { ...all(404), visitor: 401 }],
  ['/api/chats', { body: 'hello' }, { ...all(422), visitor: 401 }],
  ['/api/chats/999999999/messages', { body: 'hello' }, { ...all(404), visitor: 401 }],
  ['/api/chats/999999999/read', {}, { ...all(404), visitor: 401 }],
  ['/api/chats/999999999/offers/1', { decision: 'accept' }, { ...all(404), visitor: 401 }],
];

const post = (route: string, role: Role, form: Record<string, string>) => {
  const api = route.startsWith('/api/');
  return fetch(base + route, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: [cookies[role], api ? `XSRF-TOKEN=${TOKEN}` : ''].filter(Boolean).join('; '),
      'user-agent': BROWSER,
      'content-type': 'application/x-www-form-urlencoded',
      ...(api ? { 'x-xsrf-token': TOKEN } : { origin: base }),
    },
    body: new URLSearchParams(form).toString(),
  });
};

describe.each(ACTIONS)('POST %s %o', (route, form, expected) => {
  it.each(ROLES)('as %s', async (role) => {
    const res = await post(route, role, form);
    const want = expected[role];
    if (typeof want === 'number') {
      expect(res.status).toBe(want);
    } else {
      expect(res.status).toBe(want.status);
      expect(res.headers.get('location')).toBe(want.location);
    }
  });
});

describe('each signed-in role may subscribe to its own channel only', () => {
  it.each(ROLES)('as %s', async (role) => {
    const who = await (await fetch(`${base}/api/is-logged-in`, { headers: { cookie: cookies[role] } })).json();
    const own = { socket_id: '1.2', channel_name: `private-users.${who.user?.id ?? 'none'}` };
    expect((await post('/api/broadcasting/auth', role, own)).status).toBe(role === 'visitor' ? 401 : 200);
  });
});

describe('is-logged-in reports each role', () => {
  it.each(ROLES)('as %s', async (role) => {
    const body = await (await fetch(`${base}/api/is-logged-in`, { headers: { cookie: cookies[role] } })).json();
    expect(body.logged_in).toBe(role !== 'visitor');
    if (role === 'super-admin') expect(body.user.is_super_admin).toBe(true);
    if (role === 'one-permission') expect(body.user.permissions).toEqual(['view-banners']);
    if (role === 'member') expect(body.user.permissions).toEqual([]);
  });
});
