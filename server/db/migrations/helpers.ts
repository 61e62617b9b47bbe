// Column helpers so one migration set serves both dialects.
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';

export interface Migration {
  name: string;
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<any>, dialect: DialectName): Promise<void>;
  /**
   * PostgreSQL tables the migration rewrote, vacuumed and analysed once it has committed (a vacuum
   * cannot run in its transaction): `server/db/migrate.ts`.
   */
  vacuumAfter?: readonly string[];
}

export function withId<T extends string>(t: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const boolType = (dialect: DialectName) => (dialect === 'postgres' ? 'boolean' : 'integer');
export const boolDefault = (dialect: DialectName, v: boolean) =>
  dialect === 'postgres' ? sql.lit(v) : sql.lit(v ? 1 : 0);
export const timestampType = (dialect: DialectName) => (dialect === 'postgres' ? 'timestamptz' : 'text');
export const jsonType = (dialect: DialectName) => (dialect === 'postgres' ? 'jsonb' : 'text');
export const now = (dialect: DialectName) =>
  dialect === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const createdAt = (dialect: DialectName) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(now(dialect));
