// The back office's member search at 100,000 members (docs/product/back-office.md, "Members"):
// inserts that many into a fresh SQLite file, and into a fresh PostgreSQL schema when
// TEST_DATABASE_URL is set, then times the first page of listUsers for searches by name, email and
// phone (common, rare, absent) and with filters. Prints p50/p95 in ms per query.
//   node scripts/bench-admin-users.ts [members]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, openDatabase } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { listUsers, type UserFilters } from '../server/domain/admin/users.ts';
import { createPostgresSchema } from '../tests/support/databases.ts';

const MEMBERS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 40);
const FIRST = ['Ahmed', 'Salem', 'Fatima', 'Amal', 'Khaled', 'Omar', 'Huda', 'Mariam', 'Ali', 'Nour'];
const ARABIC = ['أحمد', 'سالم', 'فاطمة', 'أمل', 'خالد', 'عمر', 'هدى', 'مريم', 'علي', 'نور'];
const LAST = ['Ben Ali', 'Al-Tarhouni', 'Elmabrouk', 'Zway', 'Gaddour', 'Shaglouf', 'Ben Omran', 'Naas'];

async function fill(handle: DatabaseHandle) {
  const base = Date.parse('2024-01-01T00:00:00Z');
  for (let i = 0; i < MEMBERS; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(MEMBERS, i + 1000); j++) {
      const arabic = j % 2 === 0;
      const first = (arabic ? ARABIC : FIRST)[j % 10] as string;
      rows.push({
        id: `bench-${j}`,
        name: `${first} ${LAST[j % LAST.length]} ${j}`,
        email: `${FIRST[j % 10]?.toLowerCase()}.${j}@example${j % 7}.ly`,
        email_verified: j % 3 !== 0,
        phone_number: j % 2 === 0 ? `+2189${String(10_000_000 + j).padStart(8, '0')}` : null,
        phone_number_verified: j % 2 === 0,
        banned_at: j % 500 === 0 ? new Date(base) : null,
        created_at: new Date(base + j * 60_000),
        updated_at: new Date(base + j * 60_000),
      });
    }
    await handle.db
      .insertInto('users')
      .values(rows as never)
      .execute();
  }
}

const QUERIES: { label: string; q: string; filters?: UserFilters; sort?: 'created' | 'name' }[] = [
  { label: 'no search (first page)', q: '' },
  { label: 'name, common ("ali")', q: 'ali' },
  { label: 'name, Arabic ("فاطمة")', q: 'فاطمة' },
  { label: 'name, rare ("shaglouf 9999")', q: 'shaglouf 9999' },
  { label: 'name, some ("naas 12")', q: 'naas 12' },
  { label: 'two letters ("zw")', q: 'zw' },
  { label: 'email, one ("khaled.54324@")', q: 'khaled.54324@' },
  { label: 'phone ("091 0054 320")', q: '091 0054 320' },
  { label: 'absent ("zzzz")', q: 'zzzz' },
  { label: 'absent, by name ("zzzz")', q: 'zzzz', sort: 'name' },
  { label: 'banned filter', q: '', filters: { banned: 'yes' } },
  { label: 'banned + search ("ali")', q: 'ali', filters: { banned: 'yes' } },
  { label: 'verified none + search ("omar")', q: 'omar', filters: { verified: 'none' } },
];

async function measure(name: string, handle: DatabaseHandle) {
  await migrateToLatest(handle.db, handle.dialect);
  const t0 = performance.now();
  await fill(handle);
  if (handle.dialect === 'postgres') await handle.db.executeQuery({ sql: 'analyze users', parameters: [] } as never);
  console.log(`${name}: ${MEMBERS} members inserted in ${Math.round(performance.now() - t0)} ms`);
  for (const query of QUERIES) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const page = await listUsers(handle, {
        q: query.q,
        filters: query.filters ?? {},
        sort: query.sort ?? 'created',
        dir: 'desc',
        after: null,
      });
      times.push(performance.now() - start);
      rows = page.rows.length;
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => (times[Math.min(times.length - 1, Math.floor(p * times.length))] as number).toFixed(1);
    console.log(`  ${query.label.padEnd(36)} rows ${String(rows).padStart(2)}  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms`);
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'souq-bench-users-'));
try {
  const sqlite = openDatabase({ kind: 'sqlite', file: path.join(dir, 'souq.db') });
  await measure('SQLite', sqlite);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (process.env.TEST_DATABASE_URL) {
  const schema = await createPostgresSchema('bench_users');
  const pg = openDatabase({ kind: 'postgres', url: schema.url }, { poolSize: 4 });
  try {
    await measure('PostgreSQL', pg);
  } finally {
    await pg.close();
    await schema.drop();
  }
}
