// Real databases for the data-layer suites: a fresh SQLite file per test file, and, when
// TEST_DATABASE_URL is set, a fresh PostgreSQL schema per test file on that server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../server/db/index.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';

export interface TestDatabase extends DatabaseHandle {
  drop(): Promise<void>;
}

export const dialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * A fresh schema on the TEST_DATABASE_URL server: the URL that works in it (its search path), and
 * how to drop it with everything in it.
 */
export async function createPostgresSchema(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`create schema ${schema}`);
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return { url: u.toString(), drop: () => run(`drop schema ${schema} cascade`) };
}

export async function createTestDatabase(
  dialect: DialectName,
  opts: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  if (dialect === 'postgres') {
    const schema = await createPostgresSchema('test');
    handle = openDatabase({ kind: 'postgres', url: schema.url }, { poolSize: 4 });
    cleanup = schema.drop;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'souq-test-'));
    handle = openDatabase({ kind: 'sqlite', file: path.join(dir, 'souq.db') });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  if (opts.migrate !== false) await migrateToLatest(handle.db, handle.dialect);
  return {
    ...handle,
    drop: async () => {
      await handle.close();
      await cleanup();
    },
  };
}
