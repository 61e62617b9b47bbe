// The text index learns the catalogue's words and stems (docs/product/search.md, "What a word
// matches"): `ad_search` gets `terms` (the names of each ad's category chain, its options' labels,
// its city and area, in both languages) and `stems` (server/domain/search/analyzer.ts), filled here
// for every ad. SQLite makes its FTS5 table again with the four columns; PostgreSQL makes its
// document again with four weights (title A, terms B, stems C, description D) and refills
// `ad_words` from it. At a million ads this takes a few minutes.
import { type Kysely, sql } from 'kysely';
import { adPlaces, catalogueText, loadCatalogueWords, stemsOf } from '../../domain/search/text-index.ts';
import type { DB, DialectName } from '../index.ts';

export const name = '0016_search_terms';

const BATCH = 2000;

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const typed = db as DB;
  await sql`alter table ad_search add column terms text not null default ''`.execute(db);
  await sql`alter table ad_search add column stems text not null default ''`.execute(db);
  if (d === 'postgres') {
    // The document and the word list are made again below, once every row has its new columns.
    await sql`drop trigger ad_words_follow on ad_search`.execute(db);
    await sql`drop index ad_search_document`.execute(db);
    await sql`alter table ad_search drop column document`.execute(db);
  } else {
    await sql`drop trigger ad_search_ai`.execute(db);
    await sql`drop trigger ad_search_ad`.execute(db);
    await sql`drop trigger ad_search_au`.execute(db);
    await sql`drop table ad_search_fts`.execute(db);
  }

  const words = await loadCatalogueWords(typed);
  for (let after = 0; ; ) {
    const rows = await typed
      .selectFrom('ad_search')
      .select(['ad_id', 'title', 'body'])
      .where('ad_id', '>', after)
      .orderBy('ad_id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    const places = await adPlaces(
      typed,
      rows.map((r) => r.ad_id),
    );
    for (const r of rows) {
      const place = places.get(r.ad_id);
      const terms = place ? catalogueText(words, place) : '';
      await typed
        .updateTable('ad_search')
        .set({ terms, stems: stemsOf(r.title, r.body, terms) })
        .where('ad_id', '=', r.ad_id)
        .execute();
    }
    after = (rows[rows.length - 1] as { ad_id: number }).ad_id;
  }

  if (d === 'postgres') {
    await sql`set local maintenance_work_mem = '256MB'`.execute(db);
    await sql`
      alter table ad_search add column document tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', terms), 'B') ||
        setweight(to_tsvector('simple', stems), 'C') || setweight(to_tsvector('simple', body), 'D')
      ) stored`.execute(db);
    await sql`create index ad_search_document on ad_search using gin (document)`.execute(db);
    await sql`truncate ad_words`.execute(db);
    await sql`
      insert into ad_words (word, ad_id)
      select unnest(tsvector_to_array(document)), ad_id from ad_search`.execute(db);
    // The function of migration 0013 reads `document`, which holds every column now.
    await sql`
      create trigger ad_words_follow after insert or delete or update of title, body, terms, stems on ad_search
      for each row execute function ad_words_follow()`.execute(db);
  } else {
    await sql`
      create virtual table ad_search_fts using fts5(
        title, body, terms, stems,
        content = 'ad_search', content_rowid = 'ad_id',
        tokenize = 'unicode61 remove_diacritics 0',
        prefix = '2 3 4 5 6 7'
      )`.execute(db);
    await sql`
      create trigger ad_search_ai after insert on ad_search begin
        insert into ad_search_fts(rowid, title, body, terms, stems)
        values (new.ad_id, new.title, new.body, new.terms, new.stems);
      end`.execute(db);
    await sql`
      create trigger ad_search_ad after delete on ad_search begin
        insert into ad_search_fts(ad_search_fts, rowid, title, body, terms, stems)
        values ('delete', old.ad_id, old.title, old.body, old.terms, old.stems);
      end`.execute(db);
    await sql`
      create trigger ad_search_au after update on ad_search begin
        insert into ad_search_fts(ad_search_fts, rowid, title, body, terms, stems)
        values ('delete', old.ad_id, old.title, old.body, old.terms, old.stems);
        insert into ad_search_fts(rowid, title, body, terms, stems)
        values (new.ad_id, new.title, new.body, new.terms, new.stems);
      end`.execute(db);
    await sql`insert into ad_search_fts(ad_search_fts) values ('rebuild')`.execute(db);
  }
}
