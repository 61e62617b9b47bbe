// Old category slugs (docs/product/back-office.md, "Catalogue"): when staff change a category's
// slug, the old one is kept here with the category it now names, so `/{taxonomy}/{old-slug}` and
// saved searches written with it still reach the category (a 301 from the category page; saved
// searches are rewritten by server/domain/admin/catalogue-effects.ts). A slug taken again by a live
// category stops being a redirect (its row is deleted when that happens).
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, timestampType } from './helpers.ts';

export const name = '0026_category_redirects';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema
    .createTable('category_redirects')
    .addColumn('slug', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
    .addColumn('created_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema.createIndex('category_redirects_category').on('category_redirects').column('category_id').execute();
}
