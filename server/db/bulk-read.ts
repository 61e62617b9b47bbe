// Reading many rows at once where a row per value would cost more than the query: the search
// index's load reads a million ads and several million attribute values. Each column comes back
// aggregated into one comma-separated string per batch (one crossing into JavaScript instead of a
// million), with timestamps already as epoch milliseconds. The dialect differences live here.
import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from './index.ts';

/**
 * The values of `expr` over the group, comma-separated, in the order the rows are read; a null is an
 * empty entry (both aggregates would skip it, and the lists of one query must stay aligned).
 */
export function listAgg(dialect: DialectName, expr: RawBuilder<unknown>): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`string_agg(coalesce((${expr})::text, ''), ',')`
    : sql<string | null>`group_concat(coalesce(${expr}, ''))`;
}

/** A timestamp as whole epoch milliseconds (null stays null). */
export function epochMs(dialect: DialectName, expr: RawBuilder<unknown>): RawBuilder<number | null> {
  return dialect === 'postgres'
    ? sql<number | null>`(extract(epoch from ${expr}) * 1000)::bigint`
    : sql<number | null>`cast(round((julianday(${expr}) - 2440587.5) * 86400000) as integer)`;
}

/** Splits an aggregated list into numbers ('' and missing entries → NaN). */
export function numbersOf(list: string | null | undefined): Float64Array {
  if (!list) return new Float64Array(0);
  const parts = list.split(',');
  const out = new Float64Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    out[i] = p === '' ? Number.NaN : Number(p);
  }
  return out;
}

export function stringsOf(list: string | null | undefined): string[] {
  return list ? list.split(',') : [];
}
