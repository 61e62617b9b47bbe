// The text index names an ad's category, city and area by id instead of by their names
// (server/domain/search/text-index.ts, "terms"; docs/product/search.md): a query word that says a
// category's, city's or area's name is read as its key (server/domain/search/catalogue-keys.ts).
// So a category moved or renamed and a place renamed or merged in the back office write no row of
// the text index: before, each such edit wrote again the row of every ad below it (FTS5 deletes
// and inserts with its prefix indexes on SQLite, the document and its word list on PostgreSQL),
// which took a minute or more for 100 000 ads (docs/performance.md, "Data").
//
// `merged_cities` and `merged_areas` keep the ids of places merged into another: the ads moved by
// a merge keep the old place's key in their rows until they are next written, and a query naming
// the place they were merged into reads those keys too.
//
// Every row's `terms` and `stems` are written again here (the catalogue's names out, the keys in;
// the stems of the names out), with the text index made again once at the end, as migration 0016
// did: 8.6 min on SQLite and 6.3 min on PostgreSQL at a million ads (2026-11-27, a shared 2-core
// machine at a load of about 5).
import { type Kysely, sql } from 'kysely';
import { adPlaces, catalogueText, loadCatalogueWords, optionText, stemsOf } from '../../domain/search/text-index.ts';
import type { DB, DialectName } from '../index.ts';

export const name = '0029_catalogue_keys';
/** The word list is filled again below: vacuumed after the commit, so its key answers alone at once. */
export const vacuumAfter = ['ad_words'];

const BATCH = 1000;
/** Words whose stems are kept while the rows are written (most of a million ads' words repeat). */
const STEMS_KEPT = 200_000;

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const typed = db as DB;
  await db.schema
    .createTable('merged_cities')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('city_id', 'integer', (c) => c.notNull().references('cities.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('merged_cities_city').on('merged_cities').column('city_id').execute();
  await db.schema
    .createTable('merged_areas')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('merged_areas_area').on('merged_areas').column('area_id').execute();

  // The index is set aside while the rows are written, and made again from them at the end.
  if (d === 'postgres') {
    await sql`set local maintenance_work_mem = '256MB'`.execute(db);
    await sql`drop trigger ad_words_follow on ad_search`.execute(db);
    await sql`drop index ad_search_document`.execute(db);
    await sql`alter table ad_search drop column document`.execute(db);
  } else {
    await sql`drop trigger ad_search_au`.execute(db);
  }

  const words = await loadCatalogueWords(typed);
  const known = new Map<string, string>();
  const stems = (...texts: string[]) => {
    const out = new Set<string>();
    for (const text of texts) {
      for (const word of text.split(' ')) {
        if (word === '') continue;
        let s = known.get(word);
        if (s === undefined) {
          s = stemsOf(word);
          if (known.size >= STEMS_KEPT) known.clear();
          known.set(word, s);
        }
        if (s !== '') out.add(s);
      }
    }
    return [...out].join(' ');
  };
  for (let after = 0; ; ) {
    const rows = await typed
      .selectFrom('ad_search')
      .select(['ad_id', 'title', 'body'])
      .where('ad_id', '>', after)
      .orderBy('ad_id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    after = (rows[rows.length - 1] as { ad_id: number }).ad_id;
    const places = await adPlaces(
      typed,
      rows.map((r) => r.ad_id),
    );
    const values = rows.flatMap((r) => {
      const place = places.get(r.ad_id);
      // A text row without its ad (none is left so; a row is deleted with its ad) keeps its words.
      if (!place) return [];
      const terms = catalogueText(words, place);
      return [sql`(cast(${r.ad_id} as integer), ${terms}, ${stems(r.title, r.body, optionText(words, place))})`];
    });
    if (values.length === 0) continue;
    await sql`
      with v(ad_id, terms, stems) as (values ${sql.join(values, sql`, `)})
      update ad_search set terms = v.terms, stems = v.stems from v where ad_search.ad_id = v.ad_id`.execute(db);
  }

  if (d === 'postgres') {
    await sql`
      alter table ad_search add column document tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', terms), 'B') ||
        setweight(to_tsvector('simple', stems), 'C') || setweight(to_tsvector('simple', body), 'D')
      ) stored`.execute(db);
    await sql`create index ad_search_document on ad_search using gin (document)`.execute(db);
    // The word list of migration 0013, filled again in one statement and its key built after.
    await sql`alter table ad_words drop constraint ad_words_pkey`.execute(db);
    await sql`truncate ad_words`.execute(db);
    await sql`
      insert into ad_words (word, ad_id)
      select unnest(tsvector_to_array(document)), ad_id from ad_search`.execute(db);
    await sql`alter table ad_words add primary key (word, ad_id)`.execute(db);
    await sql`
      create trigger ad_words_follow after insert or delete or update of title, body, terms, stems on ad_search
      for each row execute function ad_words_follow()`.execute(db);
    // The planner's statistics now. The visibility map, which lets the word list's key answer
    // alone, comes with a vacuum, which cannot run in a migration's transaction: the migrator runs
    // it after the commit (`vacuumAfter`; docs/performance.md, "Data": until then a text query
    // reads the rows too).
    await sql`analyze ad_search`.execute(db);
    await sql`analyze ad_words`.execute(db);
  } else {
    await sql`insert into ad_search_fts(ad_search_fts) values ('rebuild')`.execute(db);
    await sql`
      create trigger ad_search_au after update on ad_search begin
        insert into ad_search_fts(ad_search_fts, rowid, title, body, terms, stems)
        values ('delete', old.ad_id, old.title, old.body, old.terms, old.stems);
        insert into ad_search_fts(rowid, title, body, terms, stems)
        values (new.ad_id, new.title, new.body, new.terms, new.stems);
      end`.execute(db);
  }
}
