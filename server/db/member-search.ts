// The dialect half of the back office's member search (docs/product/back-office.md, "Members"): a
// case-insensitive substring of a member's name, email or phone number, through a trigram index so
// 100,000 members answer in milliseconds (migration 0021). SQLite: the FTS5 trigram table
// `user_search` (kept by triggers on users), matched as a quoted phrase. PostgreSQL: a pg_trgm GIN
// index on the same lower-cased text, which LIKE uses. Searches shorter than 3 characters (no
// trigram) scan the members.
import { type Expression, type SqlBool, sql } from 'kysely';
import { containsPattern } from '../domain/admin/keyset.ts';
import type { DialectName } from './index.ts';

/** The text a member is found by, as migration 0021 indexes it on PostgreSQL (same expression). */
export const MEMBER_TEXT = sql`lower(u.name || ' ' || u.email || ' ' || coalesce(u.phone_number, ''))`;

const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * Members (`users as u`) whose text holds `text` (any case), or, with `digits`, whose phone number
 * holds them.
 */
export function memberSearch(dialect: DialectName, text: string, digits: string | null): Expression<SqlBool> {
  const needles = [text.toLowerCase(), ...(digits ? [digits] : [])];
  if (dialect === 'sqlite' && needles.every((n) => [...n].length >= 3)) {
    const match = needles.map(phrase).join(' OR ');
    return sql<SqlBool>`u.rowid in (select rowid from user_search where user_search match ${match})`;
  }
  return sql<SqlBool>`(${sql.join(
    needles.map((n) => sql`${MEMBER_TEXT} like ${containsPattern(n)} escape '\\'`),
    sql` or `,
  )})`;
}
