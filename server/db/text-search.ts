// The dialect half of text search (docs/architecture.md: dialect differences live in server/db/): matching a query's
// terms (server/domain/search/analyzer.ts: each word with the forms that match it) against the ad
// text index of migrations 0008, 0016 and 0029. Every word must match by one of its forms, the last
// word's first form as a prefix (the user may still be typing it). For relevance, the ad's own title
// weighs most, then its catalogue keys and option labels, then stems, then its description (SQLite
// bm25 10 : 5 : 2 : 1, PostgreSQL weights A : B : C : D = 1 : 0.5 : 0.2 : 0.1).
import { sql } from 'kysely';
import { type TextTerms, textTerms } from '../domain/search/analyzer.ts';
import { searchTerms } from '../domain/search/normalize.ts';
import { idsOf } from './bulk-read.ts';
import type { DB, DialectName } from './index.ts';

export interface TextMatch {
  id: number;
  /** Higher is better (only comparable within one query). */
  score: number;
}

/**
 * A query as text (its own words only), or its terms already made (with the catalogue's near
 * spellings and the keys of what its words name: `queryTextTerms`, server/domain/search/service.ts).
 */
export type TextQuery = string | TextTerms;

const termsOf = (query: TextQuery): TextTerms => (typeof query === 'string' ? textTerms(searchTerms(query)) : query);

/** FTS5 query: each word's forms as quoted strings joined by OR, the last word's first with a prefix star; all words must match. */
export function fts5Query(terms: TextTerms): string {
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  return terms
    .map((forms, i) => {
      const last = i === terms.length - 1;
      return `(${forms.map((f, j) => `${quote(f)}${last && j === 0 ? '*' : ''}`).join(' OR ')})`;
    })
    .join(' AND ');
}

/** tsquery text: each word's forms as quoted lexemes joined by |, the last word's first a prefix; words joined by &. */
export function tsQuery(terms: TextTerms): string {
  const quote = (t: string) => `'${t.replaceAll("'", "''").replaceAll('\\', '\\\\')}'`;
  return terms
    .map((forms, i) => {
      const last = i === terms.length - 1;
      return `(${forms.map((f, j) => `${quote(f)}${last && j === 0 ? ':*' : ''}`).join(' | ')})`;
    })
    .join(' & ');
}

/** Matches beyond which ranking by relevance would cost too much: newest first instead. */
export const RANK_CAP = 2000;

/**
 * The ads whose text has every word of `query`, at most `limit`: best first while the query matches
 * at most `rankCap` ads; for a very common word, newest first (ranking would score every match).
 */
export async function matchAdText(
  db: DB,
  dialect: DialectName,
  query: TextQuery,
  limit = 500,
  rankCap = RANK_CAP,
): Promise<TextMatch[]> {
  const terms = termsOf(query);
  if (terms.length === 0) return [];
  if (dialect === 'postgres') {
    const q = tsQuery(terms);
    const counted = await sql<{ n: number }>`
      select count(*) as n from (
        select 1 from ad_search where document @@ cast(${q} as tsquery) limit ${rankCap + 1}
      ) as capped`.execute(db);
    const ranked = Number(counted.rows[0]?.n ?? 0) <= rankCap;
    const rows = ranked
      ? await sql<{ id: number; score: number }>`
          select ad_id as id, ts_rank('{0.1, 0.2, 0.5, 1.0}', document, q) as score
          from ad_search, cast(${q} as tsquery) as q
          where document @@ q
          order by score desc, ad_id desc
          limit ${limit}`.execute(db)
      : await sql<{ id: number; score: number }>`
          select ad_id as id, 0 as score
          from ad_search
          where document @@ cast(${q} as tsquery)
          order by ad_id desc
          limit ${limit}`.execute(db);
    return rows.rows.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
  }
  const match = fts5Query(terms);
  const counted = await sql<{ n: number }>`
    select count(*) as n from (
      select rowid from ad_search_fts where ad_search_fts match ${match} limit ${rankCap + 1}
    )`.execute(db);
  const ranked = Number(counted.rows[0]?.n ?? 0) <= rankCap;
  const rows = ranked
    ? await sql<{ id: number; score: number }>`
        select rowid as id, -bm25(ad_search_fts, 10.0, 1.0, 5.0, 2.0) as score
        from ad_search_fts
        where ad_search_fts match ${match}
        order by score desc, rowid desc
        limit ${limit}`.execute(db)
    : await sql<{ id: number; score: number }>`
        select rowid as id, 0 as score
        from ad_search_fts
        where ad_search_fts match ${match}
        order by rowid desc
        limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
}

export interface TextCandidates {
  /** Matching ad ids, newest (highest id) first: all of them, or the newest `cap` when `exact` is false. */
  ids: readonly number[];
  exact: boolean;
}

/**
 * PostgreSQL: a prefix that starts more words than this (a letter or two, which most ads match) is
 * looked for in the documents instead of word by word.
 */
const PREFIX_WORDS = 12;
/**
 * PostgreSQL, in the documents: matches expected beyond this many times the cap are found by
 * walking the ids down (it meets `cap` matches within a few times `cap` rows); fewer, through the
 * GIN index (one row visit per match, and the walk would read most of the table).
 */
const WALK_FROM = 5;

/** Distinct ids, highest first, at most `limit`. */
function newestDistinct(ids: number[], limit: number): number[] {
  const sorted = Int32Array.from(ids).sort();
  const out: number[] = [];
  for (let i = sorted.length - 1; i >= 0 && out.length < limit; i--) {
    const id = sorted[i] as number;
    if (id !== out[out.length - 1]) out.push(id);
  }
  return out;
}

/**
 * PostgreSQL: the newest `limit` ads with a form of every word of `terms` (the last word's first
 * form a prefix) from `ad_words` (migration 0013), read from its key alone; null when the prefix
 * starts more than PREFIX_WORDS words.
 */
async function wordListCandidates(db: DB, terms: TextTerms, limit: number): Promise<number[] | null> {
  const lastForms = terms[terms.length - 1] as string[];
  const prefix = lastForms[0] as string;
  // The words the prefix starts, one key lookup each (terms hold only letters and digits: no LIKE
  // wildcards). PREFIX_WORDS + 1 of them say "too many".
  const starts = `${prefix}%`;
  const { rows } = await sql<{ word: string }>`
    with recursive w(word) as (
      (select word from ad_words where word like ${starts} order by word limit 1)
      union all
      select (select a.word from ad_words a where a.word > w.word and a.word like ${starts} order by a.word limit 1)
      from w where w.word is not null
    )
    select word from w where word is not null limit ${PREFIX_WORDS + 1}`.execute(db);
  const prefixed = rows.map((r) => r.word);
  if (prefixed.length > PREFIX_WORDS) return null;
  // Each word as the list of index words any of which matches it: the last word's are the words its
  // prefix starts and its other forms.
  const groups = [...terms.slice(0, -1), [...prefixed, ...lastForms.slice(1)]].map((g) => [...new Set(g)]);
  if (groups.some((g) => g.length === 0)) return [];
  if (groups.length === 1) {
    const words = groups[0] as string[];
    if (words.length >= MERGE_FROM) return mergedNewest(db, words, limit);
    // A few index words: each one's newest `limit` ads straight from the key, merged here. The
    // newest `limit` of the union are among them (no more than `limit` - 1 others come before one).
    const lists = await sql<{ ids: string | null }>`
      select (
        select string_agg(ad_id::text, ',') from (
          select ad_id from ad_words a where a.word = w.word order by ad_id desc limit ${limit}
        ) as newest
      ) as ids
      from unnest(cast(${words} as text[])) as w(word)`.execute(db);
    return newestDistinct(
      lists.rows.flatMap((r) => idsOf(r.ids)),
      limit,
    );
  }
  // Several words: the ads of a word with one index word (newest first) joined to each other such
  // word's, which the planner merges in id order or hashes, by its statistics of each word; a word
  // with several index words as "any of them". The walk starts from a single-form word when there
  // is one (a key range in id order).
  const single = groups.filter((g) => g.length === 1).map((g) => g[0] as string);
  const several = groups.filter((g) => g.length > 1);
  if (single.length === 0) return newestInRanges(db, several, limit);
  const anyOf = (g: string[], i: number) => {
    const p = sql.id(`p${i}`);
    return sql`and exists (select 1 from ad_words ${p} where ${p}.word = any(cast(${g} as text[])) and ${p}.ad_id = a.ad_id)`;
  };
  const [first, ...others] = single;
  const joins = others.map((w, i) => {
    const j = sql.id(`w${i}`);
    return sql`join ad_words ${j} on ${j}.ad_id = a.ad_id and ${j}.word = ${w}`;
  });
  const r = await sql<{ ids: string | null }>`
    select string_agg(ad_id::text, ',') as ids from (
      select a.ad_id from ad_words a ${sql.join(joins, sql` `)}
      where a.word = ${first} ${sql.join(several.map(anyOf), sql` `)}
      order by a.ad_id desc limit ${limit}
    ) as m`.execute(db);
  return newestDistinct(idsOf(r.rows[0]?.ids), limit);
}

/**
 * PostgreSQL, one query word: from this many index words on (a taxonomy's name has tens of
 * category keys), their lists are merged in the database (`mergedNewest`); below, each list's
 * newest are read apart and merged here, which costs less for a few lists (measured at a million
 * ads, under load: a word and a key or two, 3–7 ms apart against 3–11 ms merged; 45 keys, 33–50 ms
 * apart against 7–16 ms merged).
 */
const MERGE_FROM = 5;

/**
 * PostgreSQL: the newest `limit` ads with any of `words` (one query word's index words: its forms,
 * the words its prefix starts, the keys of the categories and places it names, tens for a
 * taxonomy's name). Each word's ids come newest first from its key, and PostgreSQL merges them
 * (a Merge Append) and stops at the `limit`th distinct id: it reads about `limit` ids, where
 * reading each word's newest `limit` apart would read up to `limit` per word.
 */
async function mergedNewest(db: DB, words: string[], limit: number): Promise<number[]> {
  // Each word's own newest `limit` (no more can be among the merged newest), so the planner sees
  // small inputs and merges them in order; an ad with several of the words (its own word and its
  // category's key) comes once per word, one after the other: the first is kept.
  const lists = words.map(
    (w) => sql`(select ad_id from ad_words where word = ${w} order by ad_id desc limit ${limit})`,
  );
  const r = await sql<{ ids: string | null }>`
    select string_agg(ad_id::text, ',') as ids from (
      select ad_id from (
        select ad_id, lag(ad_id) over (order by ad_id desc) as before
        from (${sql.join(lists, sql` union all `)}) as merged
      ) as walked
      where before is distinct from ad_id
      order by ad_id desc limit ${limit}
    ) as m`.execute(db);
  return newestDistinct(idsOf(r.rows[0]?.ids), limit);
}

/** Ids a first range of `newestInRanges` spans: a few times the ids asked for. */
const FIRST_RANGE = 4;

/**
 * PostgreSQL: the newest `limit` ads with, for each of `groups`, one of its index words, when each
 * group has several (a name of a taxonomy and of a city: tens of category keys and a city's).
 * Merging such lists in id order reads every id of every list down to the `limit`th match, and a
 * match can be rare among them (a city's share of a taxonomy's ads); joining them whole reads every
 * list to its end. Instead, ranges of ids from the newest down, until `limit` matches are found:
 * in each, every word's ids in the range from its key (an index range each), the other groups'
 * hashed and the first group's looked up in them. The first range spans a few times `limit` ids;
 * each next one what the matches found so far say holds the rest, and a tenth more (a range too
 * short costs one more query; one too long, reading ids beyond the last match needed).
 */
async function newestInRanges(db: DB, groups: string[][], limit: number): Promise<number[]> {
  const top = await sql<{ id: number | null }>`select max(ad_id) as id from ad_search`.execute(db);
  let hi = Number(top.rows[0]?.id ?? 0) + 1;
  // The group with the most words first, the others as "one of theirs too".
  const [outer, ...inner] = [...groups].sort((a, b) => b.length - a.length) as [string[], ...string[][]];
  const found: number[] = [];
  let span = FIRST_RANGE * limit;
  while (found.length < limit && hi > 0) {
    const lo = Math.max(0, hi - span);
    // "One of theirs too" as a list of their ids in the range, hashed once (`offset 0` keeps it a
    // list of its own: the planner would otherwise make its ids distinct first, which costs more).
    const also = inner.map((g, i) => {
      const p = sql.id(`p${i}`);
      return sql`and a.ad_id in (select ${p}.ad_id from ad_words ${p}
        where ${p}.word = any(cast(${g} as text[])) and ${p}.ad_id >= ${lo} and ${p}.ad_id < ${hi} offset 0)`;
    });
    const r = await sql<{ ids: string | null }>`
      select string_agg(ad_id::text, ',' order by ad_id desc) as ids from (
        select distinct a.ad_id from ad_words a
        where a.word = any(cast(${outer} as text[])) and a.ad_id >= ${lo} and a.ad_id < ${hi}
        ${sql.join(also, sql` `)}
      ) as m`.execute(db);
    found.push(...idsOf(r.rows[0]?.ids));
    const scanned = Number(top.rows[0]?.id ?? 0) + 1 - lo;
    hi = lo;
    span = found.length === 0 ? span * 8 : Math.ceil((1.1 * (limit - found.length) * scanned) / found.length);
  }
  return found.slice(0, limit);
}

/**
 * PostgreSQL, for a very short prefix: through the tsvector's GIN index, or by walking the ids
 * down, as the planner's estimate of the matches says.
 */
async function documentCandidates(db: DB, terms: TextTerms, limit: number): Promise<number[]> {
  const q = tsQuery(terms);
  // Two ways to the newest matches, and the planner often takes the wrong one for a prefix: for a
  // word in many ads, walk the ids down and test each document until `limit` match; for fewer, read
  // every match through the GIN index (materialised, so the order by cannot turn it into the
  // walk). Its own estimate of the matches (word statistics, close for words and prefixes) decides.
  const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`
    explain (format json) select 1 from ad_search where document @@ cast(${q} as tsquery)`.execute(db);
  const estimate = Number(plan.rows[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0);
  const r =
    estimate > WALK_FROM * limit
      ? await sql<{ ids: string | null }>`
        select string_agg(ad_id::text, ',') as ids from (
          select ad_id from ad_search where document @@ cast(${q} as tsquery) order by ad_id desc limit ${limit}
        ) as m`.execute(db)
      : await sql<{ ids: string | null }>`
        with m as materialized (select ad_id from ad_search where document @@ cast(${q} as tsquery))
        select string_agg(ad_id::text, ',') as ids from (
          select ad_id from m order by ad_id desc limit ${limit}
        ) as newest`.execute(db);
  return newestDistinct(idsOf(r.rows[0]?.ids), limit);
}

/**
 * The ads whose text has every word of `query`, as search candidates: the newest `cap` + 1 ids are
 * read in one aggregated row (ids cross into JavaScript as one string: a row per id would cost
 * more than the search).
 */
export async function textCandidates(
  db: DB,
  dialect: DialectName,
  query: TextQuery,
  cap: number,
): Promise<TextCandidates> {
  const terms = termsOf(query);
  if (terms.length === 0) return { ids: [], exact: true };
  let ids: number[];
  if (dialect === 'postgres') {
    ids = (await wordListCandidates(db, terms, cap + 1)) ?? (await documentCandidates(db, terms, cap + 1));
  } else {
    const r = await sql<{ ids: string | null }>`
      select group_concat(rowid) as ids from (
        select rowid from ad_search_fts where ad_search_fts match ${fts5Query(terms)} order by rowid desc limit ${cap + 1}
      )`.execute(db);
    ids = idsOf(r.rows[0]?.ids);
  }
  const exact = ids.length <= cap;
  return { ids: exact ? ids : ids.slice(0, cap), exact };
}

/** Relevance by ad id (higher is better) of at most `cap` matches of `query` (all of them, for a full ranking). */
export async function textScores(
  db: DB,
  dialect: DialectName,
  query: TextQuery,
  cap: number,
): Promise<Map<number, number>> {
  return new Map((await matchAdText(db, dialect, query, cap, cap)).map((m) => [m.id, m.score]));
}

/** The indexed text of these ads (`ad_search`: every column, normalised), as one string each. */
export async function adTexts(db: DB, ids: number[]): Promise<{ id: number; text: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('ad_search')
    .select(['ad_id', 'title', 'body', 'terms', 'stems'])
    .where('ad_id', 'in', ids)
    .execute();
  return rows.map((r) => ({ id: r.ad_id, text: `${r.title} ${r.body} ${r.terms} ${r.stems}`.trim() }));
}
