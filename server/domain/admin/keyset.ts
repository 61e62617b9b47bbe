// Keyset pagination for the back office's lists (docs/product/back-office.md, "Lists"): a page is
// the rows after a cursor in the list's order (sort column, then id as the tie-breaker), so the
// thousandth page of a million rows costs what the first does, given an index on (column, id).
// The cursor is opaque to the browser: the last row's sort value and id, base64url JSON.
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

export type SortDirection = 'asc' | 'desc';

export interface Cursor {
  /** The sort column's value on the last row of the previous page (string or number, never null). */
  value: string | number;
  id: string | number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.value, cursor.id])).toString('base64url');
}

/** The cursor in `raw`, or null when it is missing or not one of ours (a bad link shows page one). */
export function decodeCursor(raw: string | null | undefined): Cursor | null {
  if (!raw || raw.length > 400) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, id] = parsed;
    const scalar = (v: unknown): v is string | number =>
      typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    return scalar(value) && scalar(id) ? { value, id } : null;
  } catch {
    return null;
  }
}

export interface KeysetPage<Row> {
  rows: Row[];
  /** The cursor of the next page, or null on the last one. */
  next: string | null;
}

export interface KeysetOptions<Row> {
  /** The qualified sort column (`u.created_at`); never null in the rows it pages. */
  column: string;
  /** The qualified id column (`u.id`), unique. */
  id: string;
  direction: SortDirection;
  cursor: Cursor | null;
  limit: number;
  /** The sort value and id of a row, as the cursor stores them. */
  keyOf: (row: Row) => Cursor;
}

/**
 * One page of `query` in keyset order. The query must select what `keyOf` reads; its own filters
 * stay as they are, this adds the cursor condition, the order and the limit.
 */
export async function keysetPage<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  options: KeysetOptions<Row>,
): Promise<KeysetPage<Row>> {
  const column = sql.ref(options.column);
  const id = sql.ref(options.id);
  const op = options.direction === 'asc' ? sql.raw('>') : sql.raw('<');
  let q = query;
  if (options.cursor) {
    const { value, id: after } = options.cursor;
    // A row-value comparison: both dialects read it as one range of an index on (column, id), so
    // a deep page starts where its cursor is instead of skipping the rows before it.
    const past: Expression<SqlBool> = sql<SqlBool>`(${column}, ${id}) ${op} (${value}, ${after})`;
    q = q.where(past);
  }
  const dir = sql.raw(options.direction);
  const rows = await q
    .orderBy(sql`${column} ${dir}`)
    .orderBy(sql`${id} ${dir}`)
    // A literal: SQLite plans a bound LIMIT as unknown, and may then sort the whole range instead
    // of reading the index in order (the pending ads: a sort of 20 000 rows for a page of 20).
    .limit(sql.lit(options.limit + 1))
    .execute();
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > options.limit && last ? encodeCursor(options.keyOf(last)) : null };
}

/**
 * A LIKE pattern that finds `text` anywhere, with LIKE's own wildcards taken literally (used with
 * `escape '\'`); lower-cased, as the columns it is compared with are.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether any of `columns` (qualified: `c.name_ar`) holds `text` anywhere, case-insensitively and
 * with LIKE's wildcards taken literally: the back office's list search. A null column holds nothing.
 */
export function containsAny(columns: readonly string[], text: string): Expression<SqlBool> {
  const pattern = containsPattern(text);
  const tests = columns.map((c) => sql`lower(coalesce(${sql.ref(c)}, '')) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}
