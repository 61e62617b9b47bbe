// The built server's own SQLite database (DATA_DIR/souq.db), for HTTP tests that check what a
// request stored, or set up a state no page offers (an ad already published, a member banned).
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { inject } from 'vitest';

export function withServerDb<T>(work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(inject('dataDir'), 'souq.db'), { timeout: 5000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The rows of one statement (`… returning …` for writes that should answer rows). */
export const serverSql = <T>(query: string, ...args: (string | number)[]) =>
  withServerDb((db) => db.prepare(query).all(...args) as T[]);
