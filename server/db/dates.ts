// Date arithmetic that differs between the dialects.
import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from './index.ts';

/** The calendar day (UTC, `YYYY-MM-DD`) of a timestamp column. */
export function dayOf(dialect: DialectName, column: string): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`;
}

/** A timestamp value to compare with timestamp columns. */
export function timestampValue(dialect: DialectName, date: Date): Date | string {
  return dialect === 'postgres' ? date : date.toISOString();
}
