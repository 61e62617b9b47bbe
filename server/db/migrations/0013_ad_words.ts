// PostgreSQL: every (word, ad) pair of the text index as a btree that answers by itself (docs/search-index-notes.md,
// ADR 0008). The GIN index finds the ads of a word but gives only row addresses: their ids cost a
// visit to the row each (tens of thousands for a frequent word or prefix: 80–240 ms at a million
// ads). `ad_words` holds each word of `ad_search.document` with its ad; its primary key (word,
// ad_id) lists a word's ads in id order from the index alone — the newest 10 000 ads with "جديد" in
// 2 ms — and two words meet by a merge of two such lists. Kept in step with `ad_search` by a
// trigger; about 39 rows per ad (2.8 GB at a million ads). SQLite needs nothing: FTS5 stores ids
// in its own lists already.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0013_ad_words';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  if (d === 'sqlite') return;
  // Memory for sorting the key (this transaction only): 39 million rows at a million ads.
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  // Byte order ("C"): a prefix is a range of the key, and a range needs no locale rules.
  await sql`create table ad_words (word text collate "C" not null, ad_id integer not null)`.execute(db);
  await sql`
    insert into ad_words (word, ad_id)
    select unnest(tsvector_to_array(document)), ad_id from ad_search`.execute(db);
  await sql`alter table ad_words add primary key (word, ad_id)`.execute(db);
  // The planner's idea of how many ads a word has (it picks hash or merge joins by it): the 1 000
  // most common words exactly. No parallel scans (a parallel plan cannot keep id order, and chose
  // a sort of every match over reading the newest ones); vacuumed after a few thousand changes, so
  // the index can answer alone for the newest ads too (its pages must be known all-visible).
  await sql`alter table ad_words alter column word set statistics 1000`.execute(db);
  await sql`
    alter table ad_words set (
      parallel_workers = 0,
      autovacuum_vacuum_insert_scale_factor = 0.001,
      autovacuum_vacuum_scale_factor = 0.005
    )`.execute(db);
  await sql`
    create function ad_words_follow() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        delete from ad_words where ad_id = old.ad_id and word = any(tsvector_to_array(old.document));
      end if;
      if tg_op <> 'DELETE' then
        insert into ad_words (word, ad_id) select unnest(tsvector_to_array(new.document)), new.ad_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ad_words_follow after insert or delete or update of title, body on ad_search
    for each row execute function ad_words_follow()`.execute(db);
}
