// Profile settings (docs/product-notes.md, "Profile settings"): notification preferences per type
// and channel. A row exists only once a member has saved the form; until then the defaults in
// app/lib/validation/profile.ts apply.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolType, createdAt, timestampType } from './helpers.ts';

export const name = '0004_profile';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('channel', 'varchar(10)', (c) => c.notNull())
    .addColumn('enabled', boolType(d), (c) => c.notNull())
    .addColumn('updated_at', timestampType(d), createdAt(d))
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'type', 'channel'])
    .execute();
}
