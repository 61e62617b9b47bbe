// `npm run db:migrate` and `npm run db:seed` (server/db/cli.ts) run the server's modules with plain
// Node, outside the Vite bundle: nothing they import may need the bundler (`~/` paths,
// `import.meta.glob`). The bench and operators rely on them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['server/db/cli.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    timeout: 120_000,
  });

describe('the database command line', () => {
  it('migrates and seeds the catalogue with plain Node', () => {
    const migrate = cli('migrate');
    expect(migrate.stderr).toBe('');
    expect(migrate.status).toBe(0);
    expect(migrate.stdout).toMatch(/Applied migrations: 0001_foundation/);
    const seed = cli('seed', '--no-ads');
    expect(seed.stderr).toBe('');
    expect(seed.status).toBe(0);
    expect(seed.stdout).toMatch(/Seeded \d+ taxonomies/);
  });
  it('refuses an unknown command with its usage', () => {
    const r = cli('drop');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage:/);
  });
});
