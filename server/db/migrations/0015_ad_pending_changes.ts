// Pending changes of live ads (docs/product/ads.md, "Editing a live ad"): an edit of a published ad
// that needs review waits here, one per ad, while the approved version stays published. `proposal`
// is the whole edited form (fields, attribute values, photo ids in order); `changes` the reviewed
// fields with their live and proposed values, as the moderator compares them. Photos uploaded for
// the change are not on the ad yet: `held_for_ad_id` keeps them from the orphan-photo clean-up.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, jsonType, timestampType, withId } from './helpers.ts';

export const name = '0015_ad_pending_changes';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('ad_pending_changes'), d)
    .addColumn('ad_id', 'integer', (c) => c.notNull().unique().references('ads.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('proposal', jsonType(d), (c) => c.notNull())
    .addColumn('changes', jsonType(d), (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  // The queue's tab lists them oldest first.
  await db.schema.createIndex('ad_pending_changes_queue').on('ad_pending_changes').columns(['updated_at']).execute();
  await db.schema
    .alterTable('ad_images')
    .addColumn('held_for_ad_id', 'integer', (c) => c.references('ads.id').onDelete('set null'))
    .execute();
}
