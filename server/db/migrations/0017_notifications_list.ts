// The notifications page (docs/product/accounts-and-roles.md, "Notifications") lists a member's
// notifications newest first, a page at a time by keyset (`id < last seen`): an index on
// (user_id, id) reads each page straight off it. The unread counter keeps using
// `notifications_user` (user_id, read_at, id).
import type { Kysely } from 'kysely';

export const name = '0017_notifications_list';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('notifications_user_list').on('notifications').columns(['user_id', 'id']).execute();
}
