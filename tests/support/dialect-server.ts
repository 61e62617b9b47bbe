// The built server on each database the suite runs on: SQLite (a fresh DATA_DIR) and, when
// TEST_DATABASE_URL is set, PostgreSQL in a fresh schema dropped afterwards. For the HTTP tests whose
// promise must hold on both (limits, redirects, bad input); the rest of the HTTP suite shares one
// SQLite server (tests/support/http-server.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startBuiltServer } from '../../scripts/lib/built-server.ts';
import type { DialectName } from '../../server/db/index.ts';
import { dialects } from './databases.ts';

export { dialects };

export interface DialectServer {
  dialect: DialectName;
  url: string;
  /** The server process, for checking that it is still alive. */
  pid: number;
  stop(): Promise<void>;
}

export async function startDialectServer(
  dialect: DialectName,
  env: Record<string, string> = {},
): Promise<DialectServer> {
  let databaseUrl: string | undefined;
  let drop = async () => {};
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `http_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const server = await startBuiltServer({
    SEED_DEMO: 'true',
    TRUST_PROXY: '1',
    PAGE_CACHE_SECONDS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  return {
    dialect,
    url: server.url,
    pid: server.child.pid as number,
    stop: async () => {
      await server.stop();
      await drop();
    },
  };
}
