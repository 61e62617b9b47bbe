// Saved-search alerts (docs/product/alerts.md). When an ad goes live, the saved searches it may
// match are found without running every one of them:
//
// - `saved_search_index`: one row per saved search, written
//   with it (server/domain/search/saved.ts), keyed by what a new ad can be looked up by — its
//   scope (the query's category id; its taxonomy as a negative id; 0 for the whole site), its city
//   and area (0: any) — with its price band (bounds in the query's currency). An ad looks up the
//   scopes of its category chain and its taxonomy, and 0, in its city and 0; the search service's
//   own rule then checks each candidate (server/domain/search/alerts.ts).
// - `saved_search_matches`: each (saved search, ad) that matched, once: an ad that goes live again
//   (renewed after expiry) is not announced twice; daily searches' matches wait here, undelivered,
//   for the day's digest.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, timestampType } from './helpers.ts';

export const name = '0020_saved_search_alerts';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await db.schema
    .createTable('saved_search_index')
    .addColumn('saved_search_id', 'integer', (c) => c.primaryKey().references('saved_searches.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The query's category id (> 0), its taxonomy's id negated (< 0), or 0: the whole site. */
    .addColumn('scope_id', 'integer', (c) => c.notNull())
    /** The query's city and area ids; 0: any. */
    .addColumn('city_id', 'integer', (c) => c.notNull())
    .addColumn('area_id', 'integer', (c) => c.notNull())
    /** The price band, in whole units of `currency`; null: unbounded on that side. */
    .addColumn('price_min', 'bigint')
    .addColumn('price_max', 'bigint')
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    /** instant | daily | off, as the saved search's (off: never a candidate). */
    .addColumn('frequency', 'varchar(10)', (c) => c.notNull())
    .execute();
  // Covering: a new ad's lookup reads the index alone.
  await db.schema
    .createIndex('saved_search_index_place')
    .on('saved_search_index')
    .columns([
      'scope_id',
      'city_id',
      'area_id',
      'frequency',
      'price_min',
      'price_max',
      'currency',
      'user_id',
      'saved_search_id',
    ])
    .execute();

  await db.schema
    .createTable('saved_search_matches')
    .addColumn('saved_search_id', 'integer', (c) => c.notNull().references('saved_searches.id').onDelete('cascade'))
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    .addColumn('matched_at', ts, createdAt(d))
    /** When the member was told (at once, or by the day's digest); null: waiting for the digest. */
    .addColumn('delivered_at', ts)
    .addPrimaryKeyConstraint('saved_search_matches_pk', ['saved_search_id', 'ad_id'])
    .execute();
  await db.schema
    .createIndex('saved_search_matches_waiting')
    .on('saved_search_matches')
    .columns(['delivered_at', 'saved_search_id'])
    .execute();
  await db.schema.createIndex('saved_search_matches_ad').on('saved_search_matches').column('ad_id').execute();
}
