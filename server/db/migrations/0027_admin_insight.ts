// The back office's dashboard, audit log and reports queue (docs/product/back-office.md):
// - reports: who handled a report and when, and the staff member's note (the reporter's own words
//   stay in `note`);
// - revisions, which reach millions of rows, are listed newest first by (created_at, id) and
//   filtered by actor, subject type, subject or action: one index per filter, each ending in
//   (created_at, id) so a filtered page is a range of one index (server/domain/admin/revisions.ts).
//   They replace the (…, id) indexes of migration 0006, which nothing read;
// - the reports queue pages by (status, created_at, id) (replacing reports_status), a member's
//   reports are read by reporter and by reported member;
// - ads and users by created_at, for the dashboard's new ads and members per day, and the status
//   history by (ad, status, time), for when each waiting ad entered review.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { timestampType } from './helpers.ts';

export const name = '0027_admin_insight';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema.alterTable('reports').addColumn('resolution_note', 'varchar(1000)').execute();
  await db.schema.alterTable('reports').addColumn('handled_at', timestampType(d)).execute();
  await db.schema.dropIndex('reports_status').execute();
  await db.schema.createIndex('reports_queue').on('reports').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('reports_member').on('reports').columns(['user_id', 'created_at', 'id']).execute();

  await db.schema.dropIndex('revisions_subject').execute();
  await db.schema.dropIndex('revisions_actor').execute();
  await db.schema.createIndex('revisions_created').on('revisions').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('revisions_actor').on('revisions').columns(['actor_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('revisions_type').on('revisions').columns(['subject_type', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('revisions_subject')
    .on('revisions')
    .columns(['subject_type', 'subject_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('revisions_action').on('revisions').columns(['action', 'created_at', 'id']).execute();

  await db.schema.createIndex('ads_created').on('ads').columns(['created_at']).execute();
  // The ads of one status by age: the dashboard finds the longest-waiting ad among the oldest
  // pending ones (server/domain/dashboard.ts, oldestWaiting).
  await db.schema.createIndex('ads_status_created').on('ads').columns(['status', 'created_at', 'id']).execute();
  // When each ad last entered review, as one index seek per ad (the queue's order, and the
  // dashboard's longest wait).
  await db.schema
    .createIndex('ad_status_history_entered')
    .on('ad_status_history')
    .columns(['ad_id', 'to_status', 'created_at'])
    .execute();
  // Members by age: `users_created` (created_at, id) of migration 0021 serves the dashboard too.
}
