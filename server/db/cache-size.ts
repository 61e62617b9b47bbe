// A larger SQLite page cache for one large write (a category move rewrites an index entry of every
// ad below it): with the default 2 MB the pages of the ads' indexes are read from disk again and
// again. PostgreSQL sizes its own buffers: nothing to do there.
import { sql } from 'kysely';
import type { DB, DialectName } from './index.ts';

/** Runs `fn` with a 256 MB page cache on SQLite, then puts the connection's cache size back. */
export async function withLargeCache<T>(db: DB, dialect: DialectName, fn: () => Promise<T>): Promise<T> {
  if (dialect !== 'sqlite') return fn();
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const before = Number(rows[0]?.cache_size ?? -2000);
  await sql`pragma cache_size = -262144`.execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`pragma cache_size = ${before}`).execute(db);
  }
}
