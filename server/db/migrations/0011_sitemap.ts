// The sitemap's ad chunks (docs/product/site.md, server/domain/sitemap.ts): published ads by their chunk of
// 10,000 ids, then last change. `/sitemap.xml` asks each chunk for its newest `updated_at` — one
// probe per chunk instead of a pass over a million ads. Partial: only published ads are indexed.
// The literals must stay as the queries write them (`id / 10000`, `status = 'published'`), or
// neither planner matches the index; ADS_PER_SITEMAP changes with a new migration.
import { type Kysely, sql } from 'kysely';

export const name = '0011_sitemap';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index ads_sitemap on ads ((id / 10000), updated_at) where status = 'published'`.execute(db);
}
