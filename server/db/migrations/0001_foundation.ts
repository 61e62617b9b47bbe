import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, jsonType, timestampType, withId } from './helpers.ts';

export const name = '0001_foundation';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await withId(db.schema.createTable('taxonomies'), d)
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('icon', 'varchar(60)')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, true)))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .addColumn('updated_at', timestampType(d), createdAt(d))
    .execute();

  await withId(db.schema.createTable('categories'), d)
    .addColumn('taxonomy_id', 'integer', (c) => c.notNull().references('taxonomies.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('icon', 'varchar(60)')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, true)))
    .addColumn('ads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .addColumn('updated_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema
    .createIndex('categories_taxonomy_parent_position')
    .on('categories')
    .columns(['taxonomy_id', 'parent_id', 'position'])
    .execute();
  await db.schema
    .createIndex('categories_parent_position')
    .on('categories')
    .columns(['parent_id', 'position'])
    .execute();

  await withId(db.schema.createTable('attributes'), d)
    .addColumn('taxonomy_id', 'integer', (c) => c.references('taxonomies.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
    .addColumn('key', 'varchar(60)', (c) => c.notNull())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) =>
      c.notNull().check(sqlIn('type', ['text', 'number', 'select', 'multiselect', 'boolean', 'year', 'date'])),
    )
    .addColumn('options', jsonType(d))
    .addColumn('unit_ar', 'varchar(30)')
    .addColumn('unit_en', 'varchar(30)')
    .addColumn('required', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('filterable', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('shown_on_card', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('min', 'double precision')
    .addColumn('max', 'double precision')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('attributes_one_owner', sqlRaw('(taxonomy_id is null) <> (category_id is null)'))
    .addUniqueConstraint('attributes_taxonomy_key', ['taxonomy_id', 'key'])
    .addUniqueConstraint('attributes_category_key', ['category_id', 'key'])
    .execute();
  await db.schema.createIndex('attributes_category').on('attributes').columns(['category_id', 'position']).execute();

  await withId(db.schema.createTable('cities'), d)
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db.schema.createTable('areas'), d)
    .addColumn('city_id', 'integer', (c) => c.notNull().references('cities.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('areas_city_position').on('areas').columns(['city_id', 'position']).execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', jsonType(d), (c) => c.notNull())
    .addColumn('updated_at', timestampType(d), createdAt(d))
    .execute();

  await withId(db.schema.createTable('contact_messages'), d)
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('phone', 'varchar(20)')
    .addColumn('subject', 'varchar(150)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('new'))
    .addColumn('locale', 'varchar(5)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(400)')
    .addColumn('created_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema
    .createIndex('contact_messages_status')
    .on('contact_messages')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
}

const sqlRaw = (s: string) => sql.raw(s);
const sqlIn = (col: string, values: string[]) => sql.raw(`${col} in (${values.map((v) => `'${v}'`).join(', ')})`);
