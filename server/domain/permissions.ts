// Permissions (kebab-case verbs on areas, docs/product/accounts-and-roles.md), the seeded roles,
// and what a user may do.
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import { toBool } from '../db/values.ts';

export const PERMISSIONS = [
  'view-dashboard',
  'view-ads',
  'update-ads',
  'approve-ads',
  'delete-ads',
  'view-users',
  'update-users',
  'ban-users',
  'view-permissions',
  'update-permissions',
  'view-packages',
  'update-packages',
  'view-companies',
  'update-companies',
  'view-badges',
  'update-badges',
  'view-cities',
  'update-cities',
  'view-banners',
  'update-banners',
  'view-revisions',
  'view-categories',
  'update-categories',
  'update-taxonomies',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type RoleName = 'moderator' | 'catalog-editor' | 'support';

/** Seeded roles. Super admin is the `is_super_admin` flag, which bypasses every check. */
export const ROLES: Readonly<Record<RoleName, readonly Permission[]>> = {
  moderator: [
    'view-dashboard',
    'view-ads',
    'update-ads',
    'approve-ads',
    'delete-ads',
    'view-users',
    'ban-users',
    'view-revisions',
  ],
  'catalog-editor': [
    'view-dashboard',
    'view-categories',
    'update-categories',
    'update-taxonomies',
    'view-cities',
    'update-cities',
  ],
  support: ['view-dashboard', 'view-users', 'update-users', 'view-ads', 'view-companies', 'view-packages'],
};

/**
 * Inserts missing permissions; idempotent. The seeded roles and their grants are inserted only into
 * a database without any role: afterwards staff own them (the permissions screen renames, deletes
 * and changes them, and a restart must not undo that).
 */
export async function seedPermissions(db: DB): Promise<void> {
  await withTransaction(db, async (tx) => {
    for (const name of PERMISSIONS) {
      await tx
        .insertInto('permissions')
        .values({ name })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    if (await tx.selectFrom('roles').select('id').limit(1).executeTakeFirst()) return;
    const perms = new Map(
      (await tx.selectFrom('permissions').select(['id', 'name']).execute()).map((p) => [p.name, p.id]),
    );
    for (const [role, granted] of Object.entries(ROLES)) {
      const { id } = await tx.insertInto('roles').values({ name: role }).returning('id').executeTakeFirstOrThrow();
      for (const p of granted) {
        await tx
          .insertInto('role_permissions')
          .values({ role_id: id, permission_id: perms.get(p) as number })
          .execute();
      }
    }
  });
}

export interface Access {
  is_super_admin: boolean;
  /** Names of every permission held through roles or directly, sorted. */
  permissions: string[];
  roles: string[];
}

export async function accessOf(db: DB, userId: string): Promise<Access> {
  const [user, viaRoles, direct] = await Promise.all([
    db.selectFrom('users').select('is_super_admin').where('id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .leftJoin('role_permissions as rp', 'rp.role_id', 'r.id')
      .leftJoin('permissions as p', 'p.id', 'rp.permission_id')
      .select(['r.name as role', 'p.name as permission'])
      .where('ur.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_permissions as up')
      .innerJoin('permissions as p', 'p.id', 'up.permission_id')
      .select('p.name')
      .where('up.user_id', '=', userId)
      .execute(),
  ]);
  const permissions = new Set<string>(direct.map((d) => d.name));
  for (const r of viaRoles) if (r.permission) permissions.add(r.permission);
  return {
    is_super_admin: toBool(user?.is_super_admin),
    permissions: [...permissions].sort(),
    roles: [...new Set(viaRoles.map((r) => r.role))].sort(),
  };
}

export async function assignRole(db: DB, userId: string, role: string): Promise<void> {
  const { id } = await db.selectFrom('roles').select('id').where('name', '=', role).executeTakeFirstOrThrow();
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role_id: id })
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .execute();
}

export async function grantPermission(db: DB, userId: string, permission: Permission): Promise<void> {
  const { id } = await db
    .selectFrom('permissions')
    .select('id')
    .where('name', '=', permission)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_permissions')
    .values({ user_id: userId, permission_id: id })
    .onConflict((oc) => oc.columns(['user_id', 'permission_id']).doNothing())
    .execute();
}
