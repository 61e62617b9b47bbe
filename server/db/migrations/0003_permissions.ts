// Roles and permissions (docs/product/accounts-and-roles.md): roles hold permissions; users hold roles and direct
// permissions. Super admin is a flag on the user, not a role row.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId } from './helpers.ts';

export const name = '0003_permissions';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await withId(db.schema.createTable('permissions'), d)
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .execute();
  await withId(db.schema.createTable('roles'), d)
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_id'])
    .execute();
  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission_id'])
    .execute();
}
