// Banners (docs/product/back-office.md, "Banners"): images in four slots (Arabic and English, wide
// and narrow screens) with a link, a placement on the public pages, optional targeting by
// taxonomy, category and city, a schedule, an on/off switch and an order. What they did is kept per
// banner per Libyan day in `banner_stats` (impressions counted by the browsers that saw them, clicks
// by the tracked redirect `/b/{id}`), written as upserts.
// Targeting is removed with what it names (a banner aimed at a deleted category must not start
// showing everywhere): the banner goes with it.
// Indexes: (placement, position, id) is the public pages' read (a handful of rows per placement);
// (position, id) and (created_at, id) the back office's list orders.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, jsonType, timestampType, withId } from './helpers.ts';

export const name = '0025_banners';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('banners'), d)
    .addColumn('title_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('title_en', 'varchar(120)')
    .addColumn('link', 'varchar(500)', (c) => c.notNull())
    .addColumn('placement', 'varchar(20)', (c) => c.notNull())
    .addColumn('taxonomy_id', 'integer', (c) => c.references('taxonomies.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('cascade'))
    .addColumn('starts_at', ts)
    .addColumn('ends_at', ts)
    .addColumn('active', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, true)))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    /** The stored images by slot (`ar-desktop`, …): storage key prefix, size and variants. */
    .addColumn('images', jsonType(d), (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('banners_placement').on('banners').columns(['placement', 'position', 'id']).execute();
  await db.schema.createIndex('banners_position').on('banners').columns(['position', 'id']).execute();
  await db.schema.createIndex('banners_created').on('banners').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('banner_stats')
    .addColumn('banner_id', 'integer', (c) => c.notNull().references('banners.id').onDelete('cascade'))
    /** The Libyan calendar day, `YYYY-MM-DD`. */
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('banner_stats_pk', ['banner_id', 'day'])
    .execute();
}
