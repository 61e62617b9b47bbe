// Companies and badges (docs/product/back-office.md, "Companies" and "Badges"; docs/product/companies.md).
// - companies: a dealer or agency, its public page at /companies/{slug}; `logo` is the storage key
//   base of its WebP variants (server/domain/companies/companies.ts), null without one.
// - company_members: a member belongs to at most one company (user_id is the key), as its owner or
//   one of its agents.
// - ads.company_id: the company of the ad's owner, kept by server/domain/companies/ when a member
//   joins or leaves (and set when an ad is placed), so cards, the company page and the search
//   index's seller filter read one column. (company_id, status, bumped_at) serves the company page.
// - badges: a fixed icon key and colour key (app/lib/badges.ts), for members or for companies.
// - badge_grants: one row per badge and holder (a member or a company, never both).
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, timestampType, withId } from './helpers.ts';

export const name = '0023_companies_badges';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('companies'), d)
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('phone', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('website', 'varchar(300)')
    .addColumn('city_id', 'integer', (c) => c.references('cities.id').onDelete('set null'))
    .addColumn('logo', 'varchar(200)')
    .addColumn('verified', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('companies_created').on('companies').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('company_members')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    /** owner | agent */
    .addColumn('role', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('company_members_company').on('company_members').columns(['company_id']).execute();

  await db.schema
    .alterTable('ads')
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('ads_company_listing').on('ads').columns(['company_id', 'status', 'bumped_at']).execute();

  await withId(db.schema.createTable('badges'), d)
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_ar', 'varchar(60)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(60)', (c) => c.notNull())
    .addColumn('description_ar', 'varchar(300)')
    .addColumn('description_en', 'varchar(300)')
    .addColumn('icon', 'varchar(30)', (c) => c.notNull())
    .addColumn('colour', 'varchar(20)', (c) => c.notNull())
    /** user | company */
    .addColumn('target', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', ts, createdAt(d))
    .addColumn('updated_at', ts, createdAt(d))
    .execute();

  await withId(db.schema.createTable('badge_grants'), d)
    .addColumn('badge_id', 'integer', (c) => c.notNull().references('badges.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('granted_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema
    .createIndex('badge_grants_user')
    .on('badge_grants')
    .columns(['user_id', 'badge_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('badge_grants_company')
    .on('badge_grants')
    .columns(['company_id', 'badge_id'])
    .unique()
    .execute();
  await db.schema.createIndex('badge_grants_badge').on('badge_grants').columns(['badge_id', 'id']).execute();
}
