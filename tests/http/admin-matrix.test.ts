// The back office's route × role matrix (docs/product/back-office.md, "Permissions"): every admin
// page and action, on the real server, for a visitor, a member, each seeded role, the super admin,
// a member holding exactly the one permission the route needs (allowed) and a member holding every
// other permission (refused). Grows with every admin route: add it to ADMIN_ROUTES.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PERMISSIONS, type Permission, ROLES as SEEDED_ROLES } from '../../server/domain/permissions.ts';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

interface AdminRoute {
  path: string;
  /** The permission the route needs; null: any staff member; 'super-admin': the super admin only. */
  permission: Permission | null | 'super-admin';
  /** What the route's screen needs besides (an action's page guard: `view-ads` for `approve-ads`). */
  also?: Permission[];
  /** A POST (an action) with this form; a GET page when absent. The form must change nothing. */
  form?: Record<string, string>;
}

/**
 * Every admin route. A POST's form must be one the action refuses or that changes nothing (an
 * unknown id, a missing field), so the matrix can run in any order.
 */
const ADMIN_ROUTES: AdminRoute[] = [
  { path: '/admin', permission: null },
  { path: '/en/admin', permission: null },
  { path: '/admin/posts', permission: 'view-ads' },
  { path: '/en/admin/posts?status=published', permission: 'view-ads' },
  { path: '/admin/posts', permission: 'approve-ads', also: ['view-ads'], form: { intent: 'bulk-approve' } },
  { path: '/admin/taxonomies', permission: 'view-categories' },
  { path: '/en/admin/taxonomies?sort=slug&q=mot', permission: 'view-categories' },
  { path: '/admin/taxonomies/1/attributes', permission: 'update-taxonomies' },
  { path: '/en/admin/taxonomies/1/attributes', permission: 'update-taxonomies', form: { intent: 'create' } },
  { path: '/admin/categories', permission: 'view-categories' },
  { path: '/en/admin/categories/motors/cars', permission: 'view-categories' },
  {
    path: '/admin/categories/motors/cars',
    permission: 'update-categories',
    also: ['view-categories'],
    form: { intent: 'rename' },
  },
  { path: '/en/admin/categories/motors/cars/attributes', permission: 'update-categories', also: ['view-categories'] },
  {
    path: '/admin/categories/motors/cars/attributes',
    permission: 'update-categories',
    also: ['view-categories'],
    form: { intent: 'create' },
  },
];

/**
 * Each member registers and signs in from an address of its own (the test server trusts
 * X-Forwarded-For): the sign-up and sign-in rate limits count per address, and the matrix makes
 * two members per permission it checks.
 */
let nextAddress = 0;
const address = () => `10.250.${Math.floor(nextAddress / 250) % 250}.${(nextAddress++ % 250) + 1}`;

type Who = 'visitor' | 'member' | 'super-admin' | `role:${string}` | 'exactly-one' | 'all-others';

async function register(name: string, ip: string): Promise<{ email: string; password: string }> {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.ly`;
  const password = 'matrix-password';
  const res = await fetch(`${base}/en/register`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': BROWSER,
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({
      name,
      login: email,
      password,
      password_confirmation: password,
      terms: 'on',
    }).toString(),
  });
  expect(res.status).toBe(302);
  return { email, password };
}

async function signIn(email: string, password: string, ip = address()): Promise<string> {
  const res = await fetch(`${base}/en/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': BROWSER,
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({ login: email, password }).toString(),
  });
  expect(res.status).toBe(302);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A new member holding `permissions` directly and `roles`, granted in the server's own database. */
async function staffWith(permissions: readonly string[], roles: readonly string[] = []): Promise<string> {
  const ip = address();
  const { email, password } = await register('matrix', ip);
  const db = new DatabaseSync(path.join(dataDir, 'souq.db'), { timeout: 5000 });
  try {
    db.prepare('update users set email_verified = 1 where email = ?').run(email);
    const grant = db.prepare(
      'insert into user_permissions (user_id, permission_id) select u.id, p.id from users u, permissions p where u.email = ? and p.name = ?',
    );
    for (const p of permissions) grant.run(email, p);
    const role = db.prepare(
      'insert into user_roles (user_id, role_id) select u.id, r.id from users u, roles r where u.email = ? and r.name = ?',
    );
    for (const r of roles) role.run(email, r);
  } finally {
    db.close();
  }
  return signIn(email, password, ip);
}

const cookies = new Map<string, string>();
/** The members of the exactly-one and all-others columns, by the route's permissions. */
const keyOf = (r: AdminRoute) => [r.permission, ...(r.also ?? [])].join('+');

beforeAll(async () => {
  cookies.set('visitor', '');
  cookies.set('member', await signIn('user@souq.test', 'password123'));
  cookies.set('super-admin', await signIn('admin@souq.test', 'password123'));
  for (const role of Object.keys(SEEDED_ROLES)) cookies.set(`role:${role}`, await staffWith([], [role]));
  for (const r of ADMIN_ROUTES) {
    const p = r.permission;
    if (!p || p === 'super-admin' || cookies.has(`exactly-one:${keyOf(r)}`)) continue;
    cookies.set(`exactly-one:${keyOf(r)}`, await staffWith([p, ...(r.also ?? [])]));
    cookies.set(`all-others:${keyOf(r)}`, await staffWith(PERMISSIONS.filter((x) => x !== p)));
  }
}, 120_000);

const WHO: Who[] = [
  'visitor',
  'member',
  'super-admin',
  ...Object.keys(SEEDED_ROLES).map((r) => `role:${r}` as Who),
  'exactly-one',
  'all-others',
];

function cookieOf(who: Who, route: AdminRoute): string | null {
  if (who === 'exactly-one' || who === 'all-others') {
    if (!route.permission || route.permission === 'super-admin') return null;
    return cookies.get(`${who}:${keyOf(route)}`) ?? null;
  }
  return cookies.get(who) ?? null;
}

/** Whether `who` may use the route. */
function allowed(who: Who, route: AdminRoute): boolean {
  if (who === 'visitor' || who === 'member') return false;
  if (who === 'super-admin') return true;
  if (route.permission === 'super-admin') return false;
  if (who === 'exactly-one') return true;
  if (who === 'all-others') return route.permission === null;
  const granted = SEEDED_ROLES[who.slice('role:'.length) as keyof typeof SEEDED_ROLES];
  return route.permission === null || [route.permission, ...(route.also ?? [])].every((p) => granted.includes(p));
}

describe.each(ADMIN_ROUTES.map((r) => [`${r.form ? 'POST' : 'GET'} ${r.path}`, r] as const))('%s', (_name, route) => {
  it.each(WHO)('as %s', async (who) => {
    const cookie = cookieOf(who, route);
    if (cookie === null) return; // no such member for a route any staff member or only the super admin may use
    const res = await fetch(base + route.path, {
      method: route.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie,
        'user-agent': BROWSER,
        ...(route.form ? { origin: base, 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: route.form ? new URLSearchParams(route.form).toString() : undefined,
    });
    await res.arrayBuffer();
    if (who === 'visitor') {
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^(\/en)?\/login\?redirect=/);
    } else if (who === 'member') {
      expect(res.status).toBe(404);
    } else if (allowed(who, route)) {
      // Let through: the page, or the action's own answer to a form that changes nothing.
      expect(res.status, `${who} should be let through`).toBeLessThan(500);
      expect([401, 403, 404]).not.toContain(res.status);
      if (!route.form) expect(res.status).toBe(200);
    } else {
      expect(res.status, `${who} should be refused`).toBe(403);
    }
  });
});
