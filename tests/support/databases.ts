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

export async function createTestDatabase(
  dialect: DialectName,
  opts: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    handle = openDatabase({ kind: 'postgres', url: u.toString() }, { poolSize: 4 });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
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
