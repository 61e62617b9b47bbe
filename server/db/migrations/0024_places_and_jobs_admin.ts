// The back office's cities, jobs and settings screens (docs/product/back-office.md): indexes for
// what they ask. `ads_place` (city, area): whether a city or area still has ads (a delete is
// refused), their counts on the cities screen, and a merge's move of every ad of a city or area,
// without a pass over all ads. `jobs_status_list` (status, id): the jobs screen's list by status,
// newest first, read by keyset.
//
// PostgreSQL: `ad_words_follow` (migration 0013) on an update now writes only the words that
// changed (a merge or a renamed city rewrites the place words of 100 000 ads: deleting and adding
// back their 39 words each took a minute); inserts and deletes are as before.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0024_places_and_jobs_admin';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema.createIndex('ads_place').on('ads').columns(['city_id', 'area_id']).execute();
  await db.schema.createIndex('jobs_status_list').on('jobs').columns(['status', 'id']).execute();
  if (d !== 'postgres') return;
  await sql`
    create or replace function ad_words_follow() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into ad_words (word, ad_id) select unnest(tsvector_to_array(new.document)), new.ad_id;
      elsif tg_op = 'DELETE' then
        delete from ad_words where ad_id = old.ad_id and word = any(tsvector_to_array(old.document));
      elsif new.document is distinct from old.document then
        delete from ad_words where ad_id = old.ad_id and word = any(array(
          select unnest(tsvector_to_array(old.document)) except select unnest(tsvector_to_array(new.document))));
        insert into ad_words (word, ad_id)
          select w, new.ad_id from (
            select unnest(tsvector_to_array(new.document)) except select unnest(tsvector_to_array(old.document))
          ) as x(w);
      end if;
      return null;
    end $$`.execute(db);
}
