// The search index follows writes by `ads.updated_at` (server/domain/search/ad-index.ts): before
// each search it asks for the newest one and re-reads the ads changed since. Both need this index.
import type { Kysely } from 'kysely';

export const name = '0009_ad_changes';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ads_changes').on('ads').columns(['updated_at']).execute();
}
