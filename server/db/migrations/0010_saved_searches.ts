// Saved searches (docs/product/search.md): a member's query of /posts in its canonical URL form (one row per
// member and query), named for the list; alerts (frequency, last alerted) are not built
// yet; they will read these rows.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, timestampType, withId } from './helpers.ts';

export const name = '0010_saved_searches';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('saved_searches'), d)
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    /** Canonical URL parameters of the query (app/lib/search-query.ts `searchParamsOf`). */
    .addColumn('query', 'varchar(2000)', (c) => c.notNull())
    /** instant | daily | off */
    .addColumn('frequency', 'varchar(10)', (c) => c.notNull().defaultTo('daily'))
    .addColumn('last_alerted_at', ts)
    .addColumn('last_seen_at', ts)
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema
    .createIndex('saved_searches_user')
    .on('saved_searches')
    .columns(['user_id', 'query'])
    .unique()
    .execute();
}
