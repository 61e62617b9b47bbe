// The back office's cities, jobs and settings screens (docs/product/back-office.md): indexes for
// what they ask. `ads_place` (city, area): whether a city or area still has ads (a delete is
// refused), their counts on the cities screen, and a merge's move of every ad of a city or area,
// without a pass over all ads. `jobs_status_list` (status, id): the jobs screen's list by status,
// newest first, read by keyset.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0024_places_and_jobs_admin';

export async function up(db: Kysely<any>, _d: DialectName): Promise<void> {
  await db.schema.createIndex('ads_place').on('ads').columns(['city_id', 'area_id']).execute();
  await db.schema.createIndex('jobs_status_list').on('jobs').columns(['status', 'id']).execute();
}
