// Search relevance on the demo ads: every judged query of
// server/domain/search/quality/judged-queries.ts with its recall and precision of the first ten,
// then the means. A fresh database each run: a temporary SQLite file, or a new schema on the
// PostgreSQL server of `--postgres <url>` (dropped afterwards).
//
//   npm run search:quality [-- --postgres postgres://postgres@127.0.0.1:5432/test] [-- --misses]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedDemoAds } from '../server/db/seed/ads.ts';
import { seedCatalogue } from '../server/db/seed/index.ts';
import { measureRelevance } from '../server/domain/search/quality/evaluate.ts';

const { values } = parseArgs({ options: { postgres: { type: 'string' }, misses: { type: 'boolean' } } });

async function run(sqlOn: string, statement: string) {
  const client = new pg.Client({ connectionString: sqlOn });
  await client.connect();
  await client.query(statement);
  await client.end();
}

let handle: DatabaseHandle;
let cleanup: () => Promise<void>;
if (values.postgres) {
  const schema = `quality_${randomBytes(6).toString('hex')}`;
  await run(values.postgres, `create schema ${schema}`);
  const url = new URL(values.postgres);
  url.searchParams.set('options', `-c search_path=${schema}`);
  handle = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 2 });
  cleanup = () => run(values.postgres as string, `drop schema ${schema} cascade`);
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'souq-quality-'));
  handle = openDatabase({ kind: 'sqlite', file: path.join(dir, 'souq.db') });
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}

try {
  await migrateToLatest(handle.db, handle.dialect);
  await seedCatalogue(handle.db);
  await seedDemoAds(handle);
  const report = await measureRelevance(handle);
  const pct = (n: number) => `${Math.round(n * 100)}%`.padStart(5);
  console.log(`recall  p@10  strict  expected  found  kind     query (${handle.dialect})`);
  for (const q of report.queries) {
    if (values.misses && q.recall === 1 && q.precision === 1) continue;
    console.log(
      `${pct(q.recall)}  ${pct(q.precision)}  ${pct(q.strict)}   ${String(q.expected).padStart(8)}  ${String(q.found).padStart(5)}  ${q.query.kind.padEnd(7)}  ${q.query.q}`,
    );
  }
  console.log(
    `\n${report.queries.length} queries on ${handle.dialect}: mean recall ${report.recall.toFixed(3)}, mean precision of the first ten ${report.precision.toFixed(3)} (ten whatever is expected: ${report.strict.toFixed(3)})`,
  );
} finally {
  await handle.close();
  await cleanup();
}
