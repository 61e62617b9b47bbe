// Prefix indexes of 4 and 5 characters for the SQLite text index (docs/search-index-notes.md). The last
// word of a query matches as a prefix; FTS5 answers a prefix from a prefix index of its exact length
// as it answers a word — newest matches first, stopping at the cap — but without one it merges the
// document list of every word that starts so, all of it: "جديد" (4 letters, in a third of the ads)
// took 18 ms at a million ads, 1.6 ms with these. Arabic words are mostly 3 to 6 letters, so 2–5
// cover the prefixes people type; the index grows by about half. FTS5 cannot change a table's
// options: the table is made again and filled from `ad_search` (about 100 s at a million ads).
// PostgreSQL needs nothing: its GIN index answers prefixes (`:*`) by a range of its words.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0012_search_prefixes';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  if (d === 'postgres') return;
  // The triggers of 0008 name the table, not hold it: they write to the new one.
  await sql`drop table ad_search_fts`.execute(db);
  await sql`
    create virtual table ad_search_fts using fts5(
      title, body,
      content = 'ad_search', content_rowid = 'ad_id',
      tokenize = 'unicode61 remove_diacritics 0',
      prefix = '2 3 4 5'
    )`.execute(db);
  await sql`insert into ad_search_fts(ad_search_fts) values ('rebuild')`.execute(db);
}
