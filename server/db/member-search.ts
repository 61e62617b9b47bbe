// The dialect half of the back office's member search (docs/product/back-office.md, "Members"): a
// case-insensitive substring of a member's name, email or phone number, through a trigram index so
// 100,000 members answer in milliseconds (migration 0021). SQLite: the FTS5 trigram table
// `user_search` (kept by triggers on users), matched as a quoted phrase. PostgreSQL: a pg_trgm GIN
// index on the same lower-cased text, which LIKE uses. Searches shorter than 3 characters (no
// trigram) scan the members.
import { type Expression, type SqlBool, sql } from 'kysely';
import { containsPattern } from '../domain/admin/keyset.ts';
import type { DB, DialectName } from './index.ts';

/** The text a member is found by, as migration 0021 indexes it on PostgreSQL (same expression). */
export const MEMBER_TEXT = sql`lower(u.name || ' ' || u.email || ' ' || coalesce(u.phone_number, ''))`;

const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Beyond this many trigram matches, walking the list's own order and testing each row finds a page sooner. */
export const TRIGRAM_SET_MAX = 1000;

const scan = (needles: string[]) =>
  sql<SqlBool>`(${sql.join(
    needles.map((n) => sql`${MEMBER_TEXT} like ${containsPattern(n)} escape '\\'`),
    sql` or `,
  )})`;

/**
 * Members (`users as u`) whose text holds `text` (any case), or, with `digits`, whose phone number
 * holds them. On SQLite a search matching at most TRIGRAM_SET_MAX members is their rowids from the
 * trigram table; a commoner one is tested row by row in the list's order (the page fills within
 * the first rows), as is one shorter than 3 characters.
 */
export async function memberSearch(
  db: DB,
  dialect: DialectName,
  text: string,
  digits: string | null,
): Promise<Expression<SqlBool>> {
  const needles = [text.toLowerCase(), ...(digits ? [digits] : [])];
  if (dialect !== 'sqlite') return scan(needles);
  if (needles.some((n) => [...n].length < 3)) return scan(needles);
  const match = needles.map(phrase).join(' OR ');
  const rows = await sql<{ rowid: number }>`select rowid from user_search where user_search match ${match} limit ${
    TRIGRAM_SET_MAX + 1
  }`.execute(db);
  if (rows.rows.length > TRIGRAM_SET_MAX) return scan(needles);
  const ids = rows.rows.map((r) => Number(r.rowid));
  return ids.length ? sql<SqlBool>`u.rowid in (${sql.join(ids)})` : sql<SqlBool>`1 = 0`;
}
