// Roles and what they grant (docs/product/back-office.md, "Roles and permissions"): the roles ×
// permissions matrix saved as one form, creating, renaming and deleting roles, and who holds each.
// Every change writes a revision in its transaction; nobody can take away their own last way into
// the back office (./users.ts, keepsOwnWayIn).
import { HOLDERS_SHOWN } from '../../../app/lib/admin-lists.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toNumber } from '../../db/values.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';
import { PERMISSIONS } from '../permissions.ts';
import { keepsOwnWayIn } from './users.ts';

export interface RoleSummary {
  id: number;
  name: string;
  permissions: string[];
  holders: number;
}

/** Every role (by name) with its permissions and how many members hold it; the permissions in their fixed order. */
export async function rolesMatrix(db: DB): Promise<{ roles: RoleSummary[]; permissions: string[] }> {
  const [roles, grants, holders, names] = await Promise.all([
    db.selectFrom('roles').select(['id', 'name']).orderBy('name').execute(),
    db
      .selectFrom('role_permissions as rp')
      .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
      .select(['rp.role_id', 'p.name'])
      .execute(),
    db
      .selectFrom('user_roles')
      .select(['role_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('role_id')
      .execute(),
    db.selectFrom('permissions').select('name').execute(),
  ]);
  const order = (name: string) => {
    const i = (PERMISSIONS as readonly string[]).indexOf(name);
    return i < 0 ? PERMISSIONS.length : i;
  };
  const held = new Map(holders.map((h) => [h.role_id, toNumber(h.n)]));
  return {
    permissions: names.map((n) => n.name).sort((a, b) => order(a) - order(b) || a.localeCompare(b)),
    roles: roles.map((r) => ({
      id: r.id,
      name: r.name,
      permissions: grants
        .filter((g) => g.role_id === r.id)
        .map((g) => g.name)
        .sort((a, b) => order(a) - order(b)),
      holders: held.get(r.id) ?? 0,
    })),
  };
}

export { HOLDERS_SHOWN };

/** The first members (by name) holding each role. */
export async function roleHolders(db: DB, limit = HOLDERS_SHOWN): Promise<Map<number, { id: string; name: string }[]>> {
  const roles = await db.selectFrom('roles').select('id').execute();
  const out = new Map<number, { id: string; name: string }[]>();
  await Promise.all(
    roles.map(async (r) => {
      const rows = await db
        .selectFrom('user_roles as ur')
        .innerJoin('users as u', 'u.id', 'ur.user_id')
        .select(['u.id', 'u.name'])
        .where('ur.role_id', '=', r.id)
        .orderBy('u.name')
        .orderBy('u.id')
        .limit(limit)
        .execute();
      out.set(r.id, rows);
    }),
  );
  return out;
}

/**
 * Saves the matrix: for each role of `roleIds` (the roles the form showed; a role created since is
 * left alone), its permissions become exactly those of `grants` (`<roleId>:<permission>`). One
 * revision per role that changed.
 */
export async function saveMatrix(db: DB, actor: Actor, roleIds: number[], grants: string[]): Promise<number> {
  return withTransaction(db, async (tx) => {
    const perms = new Map(
      (await tx.selectFrom('permissions').select(['id', 'name']).execute()).map((p) => [p.name, p.id]),
    );
    const roles = roleIds.length
      ? await tx.selectFrom('roles').select(['id', 'name']).where('id', 'in', roleIds).execute()
      : [];
    const wanted = new Map<number, Set<string>>(roles.map((r) => [r.id, new Set()]));
    for (const grant of grants) {
      const [rawRole, name] = grant.split(':', 2);
      const roleId = Number(rawRole);
      const set = wanted.get(roleId);
      if (!set || !name || !perms.has(name)) throw new Invalid({ grants: ['validation.invalid'] });
      set.add(name);
    }
    let changed = 0;
    for (const role of roles) {
      const before = (
        await tx
          .selectFrom('role_permissions as rp')
          .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
          .select('p.name')
          .where('rp.role_id', '=', role.id)
          .execute()
      )
        .map((p) => p.name)
        .sort();
      const after = [...(wanted.get(role.id) ?? [])].sort();
      const changes = changedFields({ permissions: before }, { permissions: after });
      if (Object.keys(changes).length === 0) continue;
      await tx.deleteFrom('role_permissions').where('role_id', '=', role.id).execute();
      if (after.length) {
        await tx
          .insertInto('role_permissions')
          .values(after.map((name) => ({ role_id: role.id, permission_id: perms.get(name) as number })))
          .execute();
      }
      await recordRevision(tx, actor, { type: 'role', id: role.id }, 'permissions', changes);
      changed++;
    }
    if (changed) await keepsOwnWayIn(tx, actor);
    return changed;
  });
}

async function nameTaken(tx: DB, name: string, except?: number) {
  let q = tx.selectFrom('roles').select('id').where('name', '=', name);
  if (except !== undefined) q = q.where('id', '!=', except);
  return !!(await q.executeTakeFirst());
}

export async function createRole(db: DB, actor: Actor, name: string): Promise<number> {
  return withTransaction(db, async (tx) => {
    if (await nameTaken(tx, name)) throw new Invalid({ name: ['admin:roles.errors.name-taken'] });
    const { id } = await tx.insertInto('roles').values({ name }).returning('id').executeTakeFirstOrThrow();
    await recordRevision(tx, actor, { type: 'role', id }, 'create', { name: [null, name] });
    return id;
  });
}

export async function renameRole(db: DB, actor: Actor, id: number, name: string): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const role = await tx.selectFrom('roles').select('name').where('id', '=', id).executeTakeFirst();
    if (!role) throw new NotFound('errors.not-found');
    if (role.name === name) return false;
    if (await nameTaken(tx, name, id)) throw new Invalid({ name: ['admin:roles.errors.name-taken'] });
    await tx.updateTable('roles').set({ name }).where('id', '=', id).execute();
    await recordRevision(tx, actor, { type: 'role', id }, 'rename', { name: [role.name, name] });
    return true;
  });
}

/**
 * Deletes a role; its members lose what it granted. `holders` is the count the confirmation showed:
 * when it changed meanwhile the deletion is refused (the screen shows the new count to confirm).
 */
export async function deleteRole(db: DB, actor: Actor, id: number, holders: number): Promise<void> {
  await withTransaction(db, async (tx) => {
    const role = await tx.selectFrom('roles').select('name').where('id', '=', id).executeTakeFirst();
    if (!role) throw new NotFound('errors.not-found');
    const counted = await tx
      .selectFrom('user_roles')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('role_id', '=', id)
      .executeTakeFirstOrThrow();
    const now = toNumber(counted.n);
    if (now !== holders) throw new Invalid({ form: ['admin:roles.errors.holders-changed'] });
    const permissions = (
      await tx
        .selectFrom('role_permissions as rp')
        .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
        .select('p.name')
        .where('rp.role_id', '=', id)
        .execute()
    )
      .map((p) => p.name)
      .sort();
    await tx.deleteFrom('user_roles').where('role_id', '=', id).execute();
    await tx.deleteFrom('role_permissions').where('role_id', '=', id).execute();
    await tx.deleteFrom('roles').where('id', '=', id).execute();
    await keepsOwnWayIn(tx, actor);
    await recordRevision(tx, actor, { type: 'role', id }, 'delete', {
      name: [role.name, null],
      permissions: [permissions, null],
      holders: [now, 0],
    });
  });
}

/** Every role's id and name, by name (filters and the member's roles form). */
export function listRoles(db: DB): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('roles').select(['id', 'name']).orderBy('name').execute();
}
