// The back office's members and roles screens (docs/product/back-office.md, "Members" and "Roles
// and permissions"):
// - users (created_at, id) and (name, id): the members list pages by keyset in either order;
// - users (banned_at) where banned: the few banned members, read by every public query of ads
//   (`publicOwner`, server/domain/ads/visibility.ts) as a small set;
// - reports (user_id, status): the reports about a member on their page;
// - user_roles (role_id, user_id): who holds a role (the permissions screen, the list's role filter).
// The search box's substring match scans the rows (measured in docs/product/back-office.md).
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0021_admin_users';

export async function up(db: Kysely<any>, _d: DialectName): Promise<void> {
  await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_name').on('users').columns(['name', 'id']).execute();
  await db.schema
    .createIndex('users_banned')
    .on('users')
    .column('banned_at')
    .where(sql.ref('banned_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('reports_user').on('reports').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('user_roles_role').on('user_roles').columns(['role_id', 'user_id']).execute();
}
