// The built server on each database the suite runs on: SQLite (a fresh DATA_DIR) and, when
// TEST_DATABASE_URL is set, PostgreSQL in a fresh schema dropped afterwards. For the HTTP tests whose
// promise must hold on both (limits, redirects, bad input); the rest of the HTTP suite shares one
// SQLite server (tests/support/http-server.ts).
import { startBuiltServer } from '../../scripts/lib/built-server.ts';
import type { DialectName } from '../../server/db/index.ts';
import { createPostgresSchema, dialects } from './databases.ts';

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
  const schema = dialect === 'postgres' ? await createPostgresSchema('http') : null;
  const server = await startBuiltServer({
    SEED_DEMO: 'true',
    TRUST_PROXY: '1',
    PAGE_CACHE_SECONDS: '0',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...env,
  });
  return {
    dialect,
    url: server.url,
    pid: server.child.pid as number,
    stop: async () => {
      await server.stop();
      await schema?.drop();
    },
  };
}
