// The back office's route × role matrix (docs/product/back-office.md, "Permissions"): every admin
// page and action, on the real server, for a visitor, a member, each seeded role, the super admin,
// a member holding exactly the one permission the route needs (allowed) and a member holding every
// other permission (refused). Grows with every admin route: add it to ADMIN_ROUTES.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PERMISSIONS, type Permission, ROLES as SEEDED_ROLES } from '../../server/domain/permissions.ts';
import { browser } from '../support/http-browser.ts';

const base = inject('baseUrl');
/** A banner the matrix's banner pages open (inserted by beforeAll; no page of the matrix changes it). */
const BANNER_ID = 2_000_000_000;
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

/** A package the matrix's pages open (inserted before the matrix runs; switched off, never granted). */
const MATRIX_PACKAGE = 990_001;
/** The id of a report and of a revision the matrix's pages open (written in beforeAll). */
const MATRIX_ROW = 900_001;

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
  { path: '/admin/packages', permission: 'view-packages' },
  { path: '/en/admin/packages?active=on&sort=price', permission: 'view-packages' },
  { path: `/admin/packages/${MATRIX_PACKAGE}`, permission: 'view-packages' },
  { path: '/admin/packages/subscriptions', permission: 'view-packages' },
  { path: '/en/admin/packages/subscriptions?state=current', permission: 'view-packages' },
  { path: '/admin/packages/new', permission: 'update-packages', also: ['view-packages'] },
  { path: '/admin/packages/grant', permission: 'update-packages' },
  { path: '/en/admin/packages/grant?holder=company', permission: 'update-packages' },
  // The forms below are refused by their schema (a missing field): nothing changes.
  { path: '/admin/packages/new', permission: 'update-packages', also: ['view-packages'], form: { intent: 'save' } },
  {
    path: `/admin/packages/${MATRIX_PACKAGE}`,
    permission: 'update-packages',
    also: ['view-packages'],
    form: { intent: 'save', name_ar: '' },
  },
  { path: '/en/admin/packages/grant', permission: 'update-packages', form: { member: '' } },
  // A grant to a company without its address name: refused by the company form's schema.
  {
    path: '/admin/packages/grant?holder=company',
    permission: 'update-packages',
    form: { holder: 'company', company: '' },
  },
  // Members: `{member}` is the demo member (user@souq.test), whose email is confirmed and who is not banned.
  { path: '/admin/users', permission: 'view-users' },
  { path: '/en/admin/users?q=souq&banned=no&verified=email&sort=name', permission: 'view-users' },
  { path: '/admin/users/{member}', permission: 'view-users' },
  { path: '/en/admin/users/{member}', permission: 'view-users' },
  { path: '/admin/users/{member}', permission: 'ban-users', also: ['view-users'], form: { intent: 'ban' } },
  { path: '/admin/users/{member}', permission: 'ban-users', also: ['view-users'], form: { intent: 'unban' } },
  {
    path: '/admin/users/{member}',
    permission: 'update-users',
    also: ['view-users'],
    form: { intent: 'confirm-email' },
  },
  {
    path: '/admin/users/{member}',
    permission: 'update-users',
    also: ['view-users'],
    form: { intent: 'confirm-phone' },
  },
  {
    path: '/admin/users/{member}',
    permission: 'update-permissions',
    also: ['view-users'],
    form: { intent: 'access', roles: 'none' },
  },
  { path: '/admin/users/{member}', permission: 'super-admin', form: { intent: 'super-admin' } },
  // No badge named: refused (422), nothing granted or taken back.
  { path: '/admin/users/{member}', permission: 'update-badges', also: ['view-users'], form: { intent: 'grant-badge' } },
  {
    path: '/admin/users/{member}',
    permission: 'update-badges',
    also: ['view-users'],
    form: { intent: 'revoke-badge' },
  },
  { path: '/admin/permissions', permission: 'view-permissions' },
  { path: '/en/admin/permissions', permission: 'view-permissions' },
  {
    path: '/admin/permissions',
    permission: 'update-permissions',
    also: ['view-permissions'],
    form: { intent: 'matrix' },
  },
  {
    path: '/admin/permissions',
    permission: 'update-permissions',
    also: ['view-permissions'],
    form: { intent: 'create' },
  },
  {
    path: '/admin/permissions',
    permission: 'update-permissions',
    also: ['view-permissions'],
    form: { intent: 'rename', id: '0', name: 'x' },
  },
  {
    path: '/admin/permissions',
    permission: 'update-permissions',
    also: ['view-permissions'],
    form: { intent: 'delete', id: '0', holders: '0' },
  },
  { path: '/admin/banners', permission: 'view-banners' },
  { path: '/en/admin/banners?placement=home-hero&state=live', permission: 'view-banners' },
  { path: '/admin/banners/new', permission: 'update-banners', also: ['view-banners'] },
  { path: `/admin/banners/${BANNER_ID}`, permission: 'view-banners' },
  // No banner ticked, a form without its title: refused, nothing changes.
  { path: '/admin/banners', permission: 'update-banners', also: ['view-banners'], form: { intent: 'deactivate' } },
  { path: '/admin/banners/new', permission: 'update-banners', also: ['view-banners'], form: { intent: 'save' } },
  {
    path: `/en/admin/banners/${BANNER_ID}`,
    permission: 'update-banners',
    also: ['view-banners'],
    form: { intent: 'save', title_ar: '', link: '/posts', placement: 'home-hero' },
  },
  { path: '/admin/companies', permission: 'view-companies' },
  { path: '/en/admin/companies?verified=yes&sort=name', permission: 'view-companies' },
  { path: '/admin/companies/{company}', permission: 'view-companies' },
  { path: '/en/admin/companies/new', permission: 'update-companies', also: ['view-companies'] },
  {
    path: '/en/admin/companies/new',
    permission: 'update-companies',
    also: ['view-companies'],
    form: { intent: 'save' },
  },
  {
    path: '/admin/companies/{company}',
    permission: 'update-companies',
    also: ['view-companies'],
    form: { intent: 'add-member', login: '' },
  },
  { path: '/admin/badges', permission: 'view-badges' },
  { path: '/en/admin/badges?target=company', permission: 'view-badges' },
  { path: '/admin/badges/{badge}', permission: 'view-badges' },
  { path: '/en/admin/badges/new', permission: 'update-badges', also: ['view-badges'] },
  { path: '/en/admin/badges/new', permission: 'update-badges', also: ['view-badges'], form: { intent: 'save' } },
  { path: '/admin/badges/{badge}', permission: 'update-badges', also: ['view-badges'], form: { intent: 'grant' } },
  { path: '/admin/cities', permission: 'view-cities' },
  { path: '/en/admin/cities?q=a&sort=name', permission: 'view-cities' },
  { path: '/admin/cities', permission: 'update-cities', also: ['view-cities'], form: { intent: 'create' } },
  // The first seeded city (Tripoli).
  { path: '/admin/cities/1/areas', permission: 'update-cities' },
  { path: '/en/admin/cities/1/areas', permission: 'update-cities', form: { intent: 'area-create' } },
  { path: '/en/admin/cities/1/areas', permission: 'update-cities', form: { intent: 'city-merge', into: '' } },
  { path: '/admin/jobs', permission: 'view-dashboard' },
  { path: '/en/admin/jobs?status=dead', permission: 'view-dashboard' },
  { path: '/admin/jobs', permission: 'view-dashboard', form: { intent: 'retry', id: 'none' } },
  { path: '/admin/settings', permission: 'super-admin' },
  { path: '/en/admin/settings', permission: 'super-admin', form: { moderation: 'sometimes' } },
  { path: '/admin/reports', permission: 'view-ads' },
  { path: '/en/admin/reports?status=resolved&kind=ad', permission: 'view-ads' },
  { path: `/admin/reports/${MATRIX_ROW}`, permission: 'view-ads' },
  // No note: refused (422), the report stays open.
  {
    path: `/en/admin/reports/${MATRIX_ROW}`,
    permission: 'update-ads',
    also: ['view-ads'],
    form: { intent: 'resolve' },
  },
  { path: '/admin/revisions', permission: 'view-revisions' },
  { path: '/en/admin/revisions?type=ad&action=approve&from=2026-01-01', permission: 'view-revisions' },
  { path: `/admin/revisions/${MATRIX_ROW}`, permission: 'view-revisions' },
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

/** The route's path with `{member}`, `{company}`, `{badge}` replaced by their ids. */
const placeholders = new Map<string, string>();
const resolve = (p: string) => p.replace(/\{(\w+)\}/g, (_, name: string) => placeholders.get(name) ?? name);

/**
 * Rows some routes need (`{company}`, `{badge}` in their paths): made once in the server's own
 * database, never changed by the matrix (its forms change nothing).
 */
function fixtureRows() {
  const db = new DatabaseSync(path.join(dataDir, 'souq.db'), { timeout: 5000 });
  try {
    const one = (sql: string, ...args: string[]) => db.prepare(sql).get(...args) as { id: number } | undefined;
    const company =
      one("select id from companies where slug = 'matrix-company'") ??
      one("insert into companies (slug, name_ar, name_en) values ('matrix-company', 'شركة', 'Matrix Co') returning id");
    const badge =
      one("select id from badges where slug = 'matrix-badge'") ??
      one(
        "insert into badges (slug, name_ar, name_en, icon, colour, target) values ('matrix-badge', 'شارة', 'Matrix badge', 'star', 'blue', 'user') returning id",
      );
    placeholders.set('company', String(company?.id));
    placeholders.set('badge', String(badge?.id));
  } finally {
    db.close();
  }
}

type Who = 'visitor' | 'member' | 'super-admin' | `role:${string}` | 'exactly-one' | 'all-others';

async function register(name: string): Promise<{ email: string; password: string }> {
  // Each registration from its own address: the per-address registration limit is not what this tests.
  const address = browser().ip;
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.ly`;
  const password = 'matrix-password';
  const res = await fetch(`${base}/en/register`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': BROWSER,
      'x-forwarded-for': address,
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

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/en/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': BROWSER,
      'x-forwarded-for': browser().ip,
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
  const { email, password } = await register('matrix');
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
  return signIn(email, password);
}

const cookies = new Map<string, string>();
/** The members of the exactly-one and all-others columns, by the route's permissions. */
const keyOf = (r: AdminRoute) => [r.permission, ...(r.also ?? [])].join('+');

beforeAll(async () => {
  const db = new DatabaseSync(path.join(dataDir, 'souq.db'), { timeout: 5000 });
  try {
    db.prepare(
      `insert or ignore into packages (id, name_ar, name_en, price, currency, duration_days, max_active_ads, featured_ads, reposts, audience, active)
       values (?, 'باقة المصفوفة', 'Matrix package', 10, 'LYD', 30, 1, 0, 0, 'individual', 0)`,
    ).run(MATRIX_PACKAGE);
    const member = db.prepare('select id from users where email = ?').get('user@souq.test') as { id: string };
    placeholders.set('member', member.id);
    db.prepare(
      `insert or ignore into banners (id, title_ar, link, placement, images, active, position)
       values (?, 'بانر المصفوفة', '/posts', 'home-inline', '{}', 0, 0)`,
    ).run(BANNER_ID);
    db.prepare(
      `insert or ignore into reports (id, reporter_id, user_id, reason, status)
       select ?, r.id, u.id, 'spam', 'open' from users r, users u where r.email = 'user@souq.test' and u.email = 'admin@souq.test'`,
    ).run(MATRIX_ROW);
    db.prepare(
      `insert or ignore into revisions (id, actor_id, subject_type, subject_id, action, changes)
       select ?, id, 'report', '1', 'resolve', '{"status":["open","resolved"]}' from users where email = 'admin@souq.test'`,
    ).run(MATRIX_ROW);
  } finally {
    db.close();
  }
  fixtureRows();
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
    const res = await fetch(base + resolve(route.path), {
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
