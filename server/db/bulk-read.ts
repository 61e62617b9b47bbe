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

/**
 * Parses an aggregated list into numbers ('' entries → NaN) without splitting it into strings: a
 * million-entry list would otherwise allocate a million strings. Plain decimals are read digit by
 * digit; anything else (an exponent) goes through Number().
 */
export function numbersOf(list: string | null | undefined): Float64Array {
  if (!list) return new Float64Array(0);
  let n = 1;
  for (let i = 0; i < list.length; i++) if (list.charCodeAt(i) === 44) n++;
  const out = new Float64Array(n);
  let k = 0;
  let start = 0;
  for (let i = 0; i <= list.length; i++) {
    const c = i < list.length ? list.charCodeAt(i) : 44;
    if (c !== 44) continue;
    out[k++] = parseDecimal(list, start, i);
    start = i + 1;
  }
  return out;
}

function parseDecimal(s: string, from: number, to: number): number {
  if (from === to) return Number.NaN;
  let i = from;
  let sign = 1;
  if (s.charCodeAt(i) === 45) {
    sign = -1;
    i++;
  }
  let whole = 0;
  let fraction = 0;
  let scale = 1;
  let dot = false;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (dot) {
        fraction = fraction * 10 + (c - 48);
        scale *= 10;
      } else whole = whole * 10 + (c - 48);
    } else if (c === 46 && !dot) dot = true;
    else return Number(s.slice(from, to));
  }
  // Up to 15 significant digits the arithmetic is exact enough; longer forms go through Number().
  if (to - from > 15) return Number(s.slice(from, to));
  return sign * (whole + fraction / scale);
}

/**
 * The ids of an aggregated list (whole numbers and commas only, no empty entries), read as JSON:
 * 10 000 ids in a third of the time of splitting them into strings; `numbersOf` is for lists that
 * may hold decimals or empty entries.
 */
export function idsOf(list: string | null | undefined): number[] {
  return list ? (JSON.parse(`[${list}]`) as number[]) : [];
}

export function stringsOf(list: string | null | undefined): string[] {
  return list ? list.split(',') : [];
}
