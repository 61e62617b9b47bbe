// Prefix indexes of 6 and 7 characters too for the SQLite text index (docs/search-index-notes.md). 0012 stopped at 5,
// but a query's last word is matched as a prefix even when typed whole, and whole words of 6 and 7
// letters are among the most searched (تويوتا, مرسيدس, سيارات, هيونداي): without an index of their
// length FTS5 merges the document list of every word they start, all of it, before it can hand the
// newest matches over. At a million ads "تويوتا" took 2.3 ms instead of 1.5 ms; the index grows by
// about a sixth (770 → 890 MB). FTS5 cannot change a table's options: the table is made again and
// filled from `ad_search` (about two minutes at a million ads). PostgreSQL needs nothing.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export const name = '0014_search_long_prefixes';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  if (d === 'postgres') return;
  // The triggers of 0008 name the table, not hold it: they write to the new one.
  await sql`drop table ad_search_fts`.execute(db);
  await sql`
    create virtual table ad_search_fts using fts5(
      title, body,
      content = 'ad_search', content_rowid = 'ad_id',
      tokenize = 'unicode61 remove_diacritics 0',
      prefix = '2 3 4 5 6 7'
    )`.execute(db);
  await sql`insert into ad_search_fts(ad_search_fts) values ('rebuild')`.execute(db);
}
