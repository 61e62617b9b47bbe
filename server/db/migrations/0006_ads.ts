// Ads (docs/product/ads.md): the ad, its typed attribute values (indexed for filtering, never LIKE over
// JSON), ordered photos, status history, views per day, abuse reports and the audit log.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, jsonType, timestampType, withId } from './helpers.ts';

export const name = '0006_ads';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('ads'), d)
    // Null once the member deleted their account (their ads are soft-deleted first).
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('taxonomy_id', 'integer', (c) => c.notNull().references('taxonomies.id'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('slug', 'varchar(200)', (c) => c.notNull())
    .addColumn('title', 'varchar(150)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** Whole currency units; null when the price type has no amount (free, on request, exchange). */
    .addColumn('price', 'bigint')
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('LYD'))
    .addColumn('price_type', 'varchar(20)', (c) => c.notNull().defaultTo('fixed'))
    .addColumn('city_id', 'integer', (c) => c.notNull().references('cities.id'))
    .addColumn('area_id', 'integer', (c) => c.references('areas.id').onDelete('set null'))
    /** The owner's pin, if any (never shown exactly). */
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('contact_phone', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('contact_whatsapp', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    /** draft, pending, published, rejected, sold, expired, archived, deleted */
    .addColumn('status', 'varchar(12)', (c) => c.notNull().defaultTo('draft'))
    .addColumn('rejection_reason', 'varchar(500)')
    .addColumn('featured_until', ts)
    .addColumn('bumped_at', ts)
    .addColumn('published_at', ts)
    .addColumn('expires_at', ts)
    .addColumn('reminded_at', ts)
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorites_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** Random per form: a second submit of the same form finds the first ad instead of a new one. */
    .addColumn('submission_key', 'varchar(64)')
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema
    .createIndex('ads_category_listing')
    .on('ads')
    .columns(['category_id', 'status', 'bumped_at'])
    .execute();
  await db.schema
    .createIndex('ads_taxonomy_listing')
    .on('ads')
    .columns(['taxonomy_id', 'status', 'bumped_at'])
    .execute();
  await db.schema.createIndex('ads_owner').on('ads').columns(['user_id', 'status', 'updated_at']).execute();
  await db.schema.createIndex('ads_lifecycle').on('ads').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('ads_submission').on('ads').columns(['user_id', 'submission_key']).unique().execute();

  await withId(db.schema.createTable('ad_attribute_values'), d)
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    .addColumn('attribute_id', 'integer', (c) => c.notNull().references('attributes.id').onDelete('cascade'))
    // Exactly one of these is set, by the attribute's type; a multiselect has one row per option.
    .addColumn('value_text', 'varchar(500)')
    .addColumn('value_number', 'double precision')
    .addColumn('value_bool', boolType(d))
    .addColumn('value_date', 'varchar(10)')
    .addColumn('value_option', 'varchar(100)')
    .execute();
  await db.schema.createIndex('ad_values_ad').on('ad_attribute_values').columns(['ad_id', 'attribute_id']).execute();
  await db.schema
    .createIndex('ad_values_option')
    .on('ad_attribute_values')
    .columns(['attribute_id', 'value_option', 'ad_id'])
    .execute();
  await db.schema
    .createIndex('ad_values_number')
    .on('ad_attribute_values')
    .columns(['attribute_id', 'value_number', 'ad_id'])
    .execute();

  await withId(db.schema.createTable('ad_images'), d)
    // Photos are uploaded while the form is filled in: they belong to the member until the ad exists.
    .addColumn('ad_id', 'integer', (c) => c.references('ads.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    /** Storage key prefix; variants are `<prefix>-<variant>.webp`. */
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('variants', jsonType(d), (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('ad_images_ad').on('ad_images').columns(['ad_id', 'position']).execute();
  await db.schema.createIndex('ad_images_owner').on('ad_images').columns(['user_id', 'ad_id']).execute();

  await withId(db.schema.createTable('ad_status_history'), d)
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    .addColumn('from_status', 'varchar(12)')
    .addColumn('to_status', 'varchar(12)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'varchar(500)')
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('ad_status_history_ad').on('ad_status_history').columns(['ad_id', 'id']).execute();

  await db.schema
    .createTable('ad_views')
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ad_views_pk', ['ad_id', 'day'])
    .execute();
  // One view per visitor per ad per day; rows older than a day are pruned by a job.
  await db.schema
    .createTable('ad_view_visitors')
    .addColumn('ad_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('visitor', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('ad_view_visitors_pk', ['ad_id', 'day', 'visitor'])
    .execute();

  await withId(db.schema.createTable('reports'), d)
    .addColumn('reporter_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ad_id', 'integer', (c) => c.references('ads.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('reason', 'varchar(20)', (c) => c.notNull())
    .addColumn('note', 'varchar(1000)')
    .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('open'))
    .addColumn('handled_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('reports_ad').on('reports').columns(['ad_id', 'status']).execute();
  await db.schema.createIndex('reports_status').on('reports').columns(['status', 'created_at']).execute();

  await withId(db.schema.createTable('revisions'), d)
    .addColumn('actor_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('subject_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(40)', (c) => c.notNull())
    /** `{ field: [before, after] }` */
    .addColumn('changes', jsonType(d), (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(500)')
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema
    .createIndex('revisions_subject')
    .on('revisions')
    .columns(['subject_type', 'subject_id', 'id'])
    .execute();
  await db.schema.createIndex('revisions_actor').on('revisions').columns(['actor_id', 'id']).execute();

  // Stored notifications (docs/product/accounts-and-roles.md); delivery by mail, SMS and live channels comes later.
  await withId(db.schema.createTable('notifications'), d)
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('data', jsonType(d), (c) => c.notNull())
    .addColumn('read_at', ts)
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'read_at', 'id']).execute();

  // Denormalised: published (+ pending) ads of a member, kept right on every status change.
  await db.schema
    .alterTable('users')
    .addColumn('active_ads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
