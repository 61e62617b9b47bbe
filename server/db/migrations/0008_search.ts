// The text index of ads (docs/product/search.md). `ad_search` holds each ad's title and
// description already normalised (server/domain/search/normalize.ts: words joined by single
// spaces), written in the transaction of every place or edit. SQLite indexes it with an FTS5
// external-content table kept in step by triggers; PostgreSQL with a stored tsvector (title weight
// A, description B) of the `simple` configuration — lower-casing only, no stemming: the text holds
// only letters, digits and single spaces, so its words are the normaliser's words — and a GIN index.
import { type Kysely, sql } from 'kysely';
import { normalizeText } from '../../domain/search/normalize.ts';
import type { DialectName } from '../index.ts';

export const name = '0008_search';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  if (d === 'postgres') {
    await sql`
      create table ad_search (
        ad_id integer primary key references ads(id) on delete cascade,
        title text not null,
        body text not null,
        document tsvector generated always as (
          setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')
        ) stored
      )`.execute(db);
    await sql`create index ad_search_document on ad_search using gin (document)`.execute(db);
  } else {
    await sql`
      create table ad_search (
        ad_id integer primary key references ads(id) on delete cascade,
        title text not null,
        body text not null
      )`.execute(db);
    // unicode61 with diacritics kept: the normaliser already decided what counts as the same letter.
    await sql`
      create virtual table ad_search_fts using fts5(
        title, body,
        content = 'ad_search', content_rowid = 'ad_id',
        tokenize = 'unicode61 remove_diacritics 0',
        prefix = '2 3'
      )`.execute(db);
    await sql`
      create trigger ad_search_ai after insert on ad_search begin
        insert into ad_search_fts(rowid, title, body) values (new.ad_id, new.title, new.body);
      end`.execute(db);
    await sql`
      create trigger ad_search_ad after delete on ad_search begin
        insert into ad_search_fts(ad_search_fts, rowid, title, body) values ('delete', old.ad_id, old.title, old.body);
      end`.execute(db);
    await sql`
      create trigger ad_search_au after update on ad_search begin
        insert into ad_search_fts(ad_search_fts, rowid, title, body) values ('delete', old.ad_id, old.title, old.body);
        insert into ad_search_fts(rowid, title, body) values (new.ad_id, new.title, new.body);
      end`.execute(db);
  }
  // Ads placed before the index existed.
  for (let after = 0; ; ) {
    const ads = await db
      .selectFrom('ads')
      .select(['id', 'title', 'description'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (ads.length === 0) break;
    await db
      .insertInto('ad_search')
      .values(ads.map((a) => ({ ad_id: a.id, title: normalizeText(a.title), body: normalizeText(a.description) })))
      .execute();
    after = ads[ads.length - 1].id;
  }
}
