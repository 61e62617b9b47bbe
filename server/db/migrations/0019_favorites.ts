// Favorites (docs/product/favorites.md): one row per member and ad. The ad's price as it was when
// the member saved it is kept beside it, so /favorites can say "price changed since you saved it".
// `ads.favorites_count` (migration 0006) is kept exact by server/domain/favorites.ts in the
// transaction of each row written or removed (nothing wrote it before: it is 0 everywhere).
// Indexes: (user_id, ad_id) unique; (user_id, id) for the member's list read by keyset;
// (ad_id, id) for the ad's favoriters, read in pages when they are told of a price drop or a sale.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, timestampType, withId } from './helpers.ts';

export const name = '0019_favorites';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await withId(db.schema.createTable('favorites'), d)
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    /** The ad's price, currency and price type when it was saved (whole units; null without an amount). */
    .addColumn('saved_price', 'bigint')
    .addColumn('saved_currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('saved_price_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', timestampType(d), createdAt(d))
    .execute();
  await db.schema.createIndex('favorites_user_ad').on('favorites').columns(['user_id', 'ad_id']).unique().execute();
  await db.schema.createIndex('favorites_user_list').on('favorites').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('favorites_ad').on('favorites').columns(['ad_id', 'id']).execute();
}
