// The route guards (app/lib/guards.server.ts) run as a route module runs them, on requests that carry
// real Better Auth sessions of a visitor, a member, staff without and with the permission, and a
// super admin; each guard's outcome is checked for each of them, on both dialects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardName, guards } from '~/lib/guards.server.ts';
import { createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import { type AppServices, servicesContext } from '../../server/context.ts';
import { grantPermission, seedPermissions } from '../../server/domain/permissions.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const PASSWORD = 'guards-passphrase';
type Who = 'visitor' | 'member' | 'staff-without' | 'staff-with' | 'super-admin';
const EVERYONE: Who[] = ['visitor', 'member', 'staff-without', 'staff-with', 'super-admin'];

/** What a guard did: let the request through, redirected it, or answered it with a status. */
type Outcome = 'pass' | { redirect: string } | { status: number };

describe.each(dialects)('route guards on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let context: RouterContextProvider;
  const cookies = {} as Record<Who, string>;

  async function account(who: Who): Promise<string> {
    const email = `guard-${who}-${Date.now()}@example.ly`;
    const auth = context.get(servicesContext).auth;
    await auth.api.signUpEmail({ body: { name: who, email, password: PASSWORD } });
    // An email signs in once confirmed (docs/accounts.md).
    await t.db.updateTable('users').set({ email_verified: true }).where('email', '=', email).execute();
    const { id } = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    // Staff without the permission the guards below ask for (view-ads) hold another one.
    if (who === 'staff-without') await grantPermission(t.db, id, 'view-banners');
    if (who === 'staff-with') await grantPermission(t.db, id, 'view-ads');
    if (who === 'super-admin')
      await t.db.updateTable('users').set({ is_super_admin: true }).where('id', '=', id).execute();
    const { headers } = await auth.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
    return headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedPermissions(t.db);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-guards-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      AUTH_SECRET: 'guards-test-secret-0123456789-abcdefghijkl',
    });
    const auth = createAuth(config, t, { quiet: true });
    context = new RouterContextProvider();
    context.set(servicesContext, { auth, database: t } as unknown as AppServices);
    cookies.visitor = '';
    for (const who of EVERYONE.slice(1)) cookies[who] = await account(who);
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the named guard on a GET of `path` as `who`, the way React Router runs route middleware. */
  async function outcome(name: GuardName, who: Who, path: string): Promise<Outcome> {
    const [middleware] = guards(name);
    const request = new Request(`http://souq.test${path}`, { headers: { cookie: cookies[who] } });
    try {
      await middleware({ request, context, params: {} } as never, async () => new Response('the page'));
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      if (thrown.status === 302) return { redirect: thrown.headers.get('location') ?? '' };
      return { status: thrown.status };
    }
    return 'pass';
  }

  const table = (expected: Record<Who, Outcome>) => EVERYONE.map((who) => [who, expected[who]] as const);

  describe('auth', () => {
    it.each(
      table({
        visitor: { redirect: '/login?redirect=%2Fprofile%2Fposts%3Fpage%3D2' },
        member: 'pass',
        'staff-without': 'pass',
        'staff-with': 'pass',
        'super-admin': 'pass',
      }),
    )('as %s', async (who, expected) => {
      expect(await outcome('auth', who, '/profile/posts?page=2')).toEqual(expected);
    });
    it('sends a visitor to the login page of /en under /en', async () => {
      expect(await outcome('auth', 'visitor', '/en/profile')).toEqual({
        redirect: '/en/login?redirect=%2Fen%2Fprofile',
      });
    });
  });

  describe('guest', () => {
    it.each(
      table({
        visitor: 'pass',
        member: { redirect: '/' },
        'staff-without': { redirect: '/' },
        'staff-with': { redirect: '/' },
        'super-admin': { redirect: '/' },
      }),
    )('as %s', async (who, expected) => {
      expect(await outcome('guest', who, '/login')).toEqual(expected);
      expect(await outcome('guest', who, '/en/register')).toEqual(expected === 'pass' ? 'pass' : { redirect: '/en' });
    });
  });

  describe('admin', () => {
    it.each(
      table({
        visitor: { redirect: '/en/login?redirect=%2Fen%2Fadmin' },
        member: { status: 404 },
        'staff-without': 'pass',
        'staff-with': 'pass',
        'super-admin': 'pass',
      }),
    )('as %s', async (who, expected) => {
      expect(await outcome('admin', who, '/en/admin')).toEqual(expected);
    });
  });

  describe('acl:view-ads', () => {
    it.each(
      table({
        visitor: { redirect: '/login?redirect=%2Fadmin%2Fposts' },
        member: { status: 404 },
        'staff-without': { status: 403 },
        'staff-with': 'pass',
        'super-admin': 'pass',
      }),
    )('as %s', async (who, expected) => {
      expect(await outcome('acl:view-ads', who, '/admin/posts')).toEqual(expected);
    });
    it('checks the permission it names: view-banners lets in the other staff member', async () => {
      expect(await outcome('acl:view-banners', 'staff-without', '/admin/banners')).toBe('pass');
      expect(await outcome('acl:view-banners', 'staff-with', '/admin/banners')).toEqual({ status: 403 });
    });
  });
});
