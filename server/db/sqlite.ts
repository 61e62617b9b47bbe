// Kysely on the built-in node:sqlite (ADR 0003: no native addons compiled per Node ABI).
// The adapter converts what node:sqlite cannot bind safely: a Date would silently become NULL,
// a boolean is refused, and undefined throws, so we turn it into a clear error instead.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Bindable = null | number | bigint | string | Uint8Array;

export function toSqliteValue(value: unknown, index: number): Bindable {
  if (value === undefined) throw new TypeError(`SQLite parameter ${index + 1} is undefined`);
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') {
    return value;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`SQLite parameter ${index + 1} is an invalid Date`);
    return value.toISOString();
  }
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'object') return JSON.stringify(value);
  throw new TypeError(`SQLite parameter ${index + 1} has unsupported type ${typeof value}`);
}

const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);

class Statement implements SqliteStatement {
  readonly reader: boolean;
  #stmt: StatementSync;
  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...bind(parameters));
  }
  run(parameters: ReadonlyArray<unknown>) {
    const r = this.#stmt.run(...bind(parameters));
    return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
  }
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...bind(parameters)) as IterableIterator<unknown>;
  }
}

/** Opens (creating if needed) a SQLite file with WAL, foreign keys and a busy timeout. */
export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(file, { timeout: 5000 });
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA busy_timeout = 5000');
  // Planner statistics for tables that need them (SQLite's advice for long-lived connections; cheap
  // when nothing changed). The `optimize-database` job repeats it while the app runs.
  raw.exec('PRAGMA optimize=0x10002');
  // Prepared statements are reused: Kysely compiles the same SQL text for the same query shape.
  const cache = new Map<string, Statement>();
  return {
    raw,
    close: () => {
      cache.clear();
      raw.close();
    },
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = new Statement(raw.prepare(sql));
        if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
