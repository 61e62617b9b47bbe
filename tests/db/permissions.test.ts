import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import { seedDemoAccounts } from '../../server/db/seed/demo.ts';
import { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.ts';
import {
  accessOf,
  assignRole,
  grantPermission,
  PERMISSIONS,
  ROLES,
  seedPermissions,
} from '../../server/domain/permissions.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('roles and permissions on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedPermissions(t.db);
    await seedPermissions(t.db); // idempotent
  });
  afterAll(() => t.drop());

  it('seeds every permission of docs/product/accounts-and-roles.md and the roles', async () => {
    const names = (await t.db.selectFrom('permissions').select('name').execute()).map((p) => p.name).sort();
    expect(names).toEqual([...PERMISSIONS].sort());
    const roles = (await t.db.selectFrom('roles').select('name').execute()).map((r) => r.name).sort();
    expect(roles).toEqual(Object.keys(ROLES).sort());
  });

  it('creates the demo accounts with their access, once', async () => {
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: `${process.env.TMPDIR ?? '/tmp'}/souq-perm-test`,
    });
    const auth = createAuth(config, t, { quiet: true });
    expect((await seedDemoAccounts(t.db, auth)).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    expect(await seedDemoAccounts(t.db, auth)).toEqual([]);
    // Created verified, as the server does it: no mail is queued for them.
    await new Promise((r) => setTimeout(r, 50));
    expect(await t.db.selectFrom('jobs').select('name').where('name', '=', 'send-mail').execute()).toEqual([]);
    const idOf = async (email: string) =>
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    expect(await accessOf(t.db, await idOf('admin@souq.test'))).toEqual({
      is_super_admin: true,
      permissions: [],
      roles: [],
    });
    const moderator = await accessOf(t.db, await idOf('moderator@souq.test'));
    expect(moderator.roles).toEqual(['moderator']);
    expect(moderator.permissions).toEqual([...ROLES.moderator].sort());
    const member = await idOf('user@souq.test');
    expect(await accessOf(t.db, member)).toEqual({ is_super_admin: false, permissions: [], roles: [] });

    // Direct permissions add to those of roles, without duplicates.
    await grantPermission(t.db, member, 'view-banners');
    await assignRole(t.db, member, 'support');
    await grantPermission(t.db, member, 'view-users');
    const access = await accessOf(t.db, member);
    expect(access.permissions).toEqual([...new Set([...ROLES.support, 'view-banners'])].sort());
    expect(access.roles).toEqual(['support']);
  });
});
