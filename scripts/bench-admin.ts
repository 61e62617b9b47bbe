// `npm run bench`'s back-office section (docs/performance.md, "Back office"): each admin list's query
// and the dashboard's, called in this process one at a time on the bench database (the ads of the
// seeded size), which this section tops up first to BENCH_MEMBERS members, BENCH_REVISIONS
// revisions and BENCH_REPORTS reports (rows written in bulk by one SQL statement each, shaped
// like the site's: a few staff make most changes, most of them on ads). Alone, without the server
// under load: `npm run bench:admin -- --ads 1000000 [--postgres postgres://…]` (the options of
// `npm run bench`'s database: scripts/lib/bench-database.ts).
//
// A list is one entry of ADMIN_LISTS, `{ name, run }`: `run` is what the screen's loader asks the
// database for its first page (or the page it names). Add the new screens' lists there.

import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.ts';
import { type DatabaseHandle, openDatabase } from '../server/db/index.ts';
import { toIso, toNumber } from '../server/db/values.ts';
import { type Cursor, decodeCursor } from '../server/domain/admin/keyset.ts';
import { listReports } from '../server/domain/admin/reports.ts';
import { listRevisions } from '../server/domain/admin/revisions.ts';
import { loadDashboard } from '../server/domain/dashboard.ts';
import { listModerationQueue, type QueueFilters } from '../server/domain/moderation.ts';
import { prepareBenchDatabase } from './lib/bench-database.ts';
import { summarise } from './lib/bench-load.ts';

export const ADMIN_TARGET_MS = 100;
export const BENCH_MEMBERS = 100_000;
export const BENCH_REVISIONS = 1_000_000;
export const BENCH_REPORTS = 20_000;
/** The bench's members: `bench-admin-<n>`; the first STAFF of them make most changes. */
const MEMBER_PREFIX = 'bench-admin-';
const STAFF = 20;

export interface AdminList {
  name: string;
  run: (handle: DatabaseHandle) => Promise<unknown>;
}

/** Values some lists need, looked up once per database (outside the measured runs' first pass). */
const lookups = new WeakMap<DatabaseHandle, Map<string, Promise<unknown>>>();
function once<T>(handle: DatabaseHandle, key: string, find: () => Promise<T>): Promise<T> {
  let byKey = lookups.get(handle);
  if (!byKey) {
    byKey = new Map();
    lookups.set(handle, byKey);
  }
  if (!byKey.has(key)) byKey.set(key, find());
  return byKey.get(key) as Promise<T>;
}

/** A cursor half way down the revisions, newest first: a page deep in a million rows. */
const deepCursor = (h: DatabaseHandle) =>
  once(h, 'deep', async (): Promise<Cursor | null> => {
    const n = toNumber(
      (
        await h.db
          .selectFrom('revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
    const row = await h.db
      .selectFrom('revisions')
      .select(['created_at', 'id'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(Math.floor(n / 2))
      .limit(1)
      .executeTakeFirst();
    return row ? { value: toIso(row.created_at), id: toNumber(row.id) } : null;
  });

/** The second page of a list: the cursor its first page ends with. */
const secondPage = async (h: DatabaseHandle, key: string, first: () => Promise<{ next: string | null }>) =>
  once(h, key, async () => decodeCursor((await first()).next));

/** The id of a taxonomy or city by slug (the queue's filters take ids). */
const idOf = (h: DatabaseHandle, table: 'taxonomies' | 'cities', slug: string) =>
  once(h, `${table}:${slug}`, async () =>
    Number((await h.db.selectFrom(table).select('id').where('slug', '=', slug).executeTakeFirst())?.id ?? 0),
  );

/** The member with the most ads (the owner filter's dearest case). */
const busiestOwner = (h: DatabaseHandle) =>
  once(h, 'owner', async () => {
    const row = await h.db
      .selectFrom('ads')
      .select(['user_id', (eb) => eb.fn.countAll().as('n')])
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.user_id ?? '';
  });

/**
 * The city and taxonomy with the fewest published ads together that still have some (the
 * counters say which): a filtered tab whose few rows are spread through a million.
 */
const rarestPair = (h: DatabaseHandle) =>
  once(h, 'rare', async () => {
    const row = await h.db
      .selectFrom('ad_counts')
      .select(['taxonomy_id', 'city_id'])
      .where('status', '=', 'published')
      .where('n', '>', 0)
      .orderBy('n')
      .orderBy('taxonomy_id')
      .orderBy('city_id')
      .limit(1)
      .executeTakeFirst();
    return { taxonomyId: row?.taxonomy_id ?? 0, cityId: row?.city_id ?? 0 };
  });

const queue = (h: DatabaseHandle, filters: QueueFilters) => listModerationQueue(h.db, filters);

export const ADMIN_LISTS: AdminList[] = [
  { name: 'moderation queue (/admin/posts, pending)', run: (h) => queue(h, { status: 'pending' }) },
  {
    name: 'moderation queue, pending, page 2',
    run: async (h) =>
      queue(h, {
        status: 'pending',
        after: await secondPage(h, 'pending-2', () => queue(h, { status: 'pending' })),
      }),
  },
  { name: 'moderation queue, published tab', run: (h) => queue(h, { status: 'published' }) },
  {
    name: 'moderation queue, published, page 2',
    run: async (h) =>
      queue(h, {
        status: 'published',
        after: await secondPage(h, 'published-2', () => queue(h, { status: 'published' })),
      }),
  },
  {
    name: 'moderation queue, pending, one taxonomy',
    run: async (h) => queue(h, { status: 'pending', taxonomyId: await idOf(h, 'taxonomies', 'motors') }),
  },
  {
    name: 'moderation queue, published, one city',
    run: async (h) => queue(h, { status: 'published', cityId: await idOf(h, 'cities', 'misrata') }),
  },
  {
    name: 'moderation queue, published, rarest pair',
    run: async (h) => queue(h, { status: 'published', ...(await rarestPair(h)) }),
  },
  { name: 'moderation queue, published, reported', run: (h) => queue(h, { status: 'published', reported: true }) },
  {
    name: 'moderation queue, busiest owner',
    run: async (h) => queue(h, { status: 'published', ownerId: await busiestOwner(h) }),
  },
  { name: 'moderation queue, changes tab', run: (h) => queue(h, { status: 'published', changes: true }) },
  { name: 'revisions, newest first', run: (h) => listRevisions(h.db, {}) },
  {
    name: 'revisions, a page half way down',
    run: async (h) => listRevisions(h.db, {}, { cursor: await deepCursor(h) }),
  },
  { name: 'revisions by actor (id)', run: (h) => listRevisions(h.db, { actor: `${MEMBER_PREFIX}3` }) },
  {
    name: 'revisions by actor (email), page 2',
    run: async (h) => {
      const filters = { actor: `${MEMBER_PREFIX}3@bench.invalid` };
      const cursor = await secondPage(h, 'actor-2', () => listRevisions(h.db, filters));
      return listRevisions(h.db, filters, { cursor });
    },
  },
  { name: 'revisions by subject type (user)', run: (h) => listRevisions(h.db, { type: 'user' }) },
  { name: 'revisions by subject type (category)', run: (h) => listRevisions(h.db, { type: 'category' }) },
  { name: 'revisions by subject (one ad)', run: (h) => listRevisions(h.db, { type: 'ad', subject: '4242' }) },
  { name: 'revisions by action (reject)', run: (h) => listRevisions(h.db, { action: 'reject' }) },
  {
    name: 'revisions, actor + action + a week',
    run: (h) =>
      listRevisions(h.db, {
        actor: `${MEMBER_PREFIX}3`,
        action: 'approve',
        from: new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10),
        to: new Date(Date.now() - 53 * 86_400_000).toISOString().slice(0, 10),
      }),
  },
  { name: 'reports queue (open, oldest first)', run: (h) => listReports(h.db, {}) },
  {
    name: 'reports queue (resolved, newest first)',
    run: (h) => listReports(h.db, { status: 'resolved' }, { direction: 'desc' }),
  },
  // Nothing is kept between views: every figure is read afresh each time (per-day counters).
  { name: 'dashboard', run: (h) => loadDashboard(h) },
];

export interface AdminBenchRow {
  name: string;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface AdminBench {
  members: number;
  revisions: number;
  reports: number;
  /** Seconds the top-up took (0 when the database had them all). */
  seed_seconds: number;
  rows: AdminBenchRow[];
}

const count = async (h: DatabaseHandle, table: 'users' | 'revisions' | 'reports') =>
  toNumber(
    (
      await h.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n,
  );

/** Rows numbered 0…n-1 for an INSERT … SELECT (`seq.n`), in both dialects. */
const numbers = (h: DatabaseHandle, from: number, n: number) =>
  h.dialect === 'postgres'
    ? sql`generate_series(${sql.lit(from)}::bigint, ${sql.lit(from + n - 1)}::bigint) as seq(n)`
    : sql`(with recursive s(n) as (select ${sql.lit(from)} union all select n + 1 from s where n < ${sql.lit(from + n - 1)}) select n from s) as seq`;

/** `seconds` after the epoch as a timestamp column value. */
const instant = (h: DatabaseHandle, seconds: ReturnType<typeof sql>) =>
  h.dialect === 'postgres'
    ? sql`to_timestamp(${seconds})`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`;

/** Tops the database up to the bench's members, revisions and reports. Returns the seconds it took. */
export async function seedAdminBench(
  h: DatabaseHandle,
  sizes = { members: BENCH_MEMBERS, revisions: BENCH_REVISIONS, reports: BENCH_REPORTS },
): Promise<number> {
  const started = performance.now();
  const now = Math.floor(Date.now() / 1000);
  const year = 365 * 86_400;
  // Members: joined over the last two years, oldest first.
  const existing = toNumber(
    (
      await h.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('id', 'like', `${MEMBER_PREFIX}%`)
        .executeTakeFirst()
    )?.n,
  );
  if (existing < sizes.members) {
    console.log(`Adding ${sizes.members - existing} bench members…`);
    const joined = instant(
      h,
      sql`${sql.lit(now - 2 * year)} + seq.n * ${sql.lit(Math.floor((2 * year) / sizes.members))}`,
    );
    await sql`insert into users (id, name, email, locale, created_at, updated_at)
      select ${MEMBER_PREFIX} || seq.n, 'Bench member ' || seq.n, ${MEMBER_PREFIX} || seq.n || '@bench.invalid',
             case when seq.n % 3 = 0 then 'en' else 'ar' end, ${joined}, ${joined}
      from ${numbers(h, existing, sizes.members - existing)}`.execute(h.db);
  }
  const maxAd = toNumber(
    (
      await h.db
        .selectFrom('ads')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m,
  );
  const members = sizes.members;
  // Revisions: a year of them, oldest first; 60 % by the first STAFF members, 30 % by members
  // editing their ads, 10 % by the system; 75 % about ads, 15 % members, 5 % reports, 5 % categories.
  const revisions = await count(h, 'revisions');
  if (revisions < sizes.revisions && maxAd > 0) {
    const n = sizes.revisions - revisions;
    console.log(`Adding ${n} bench revisions…`);
    const step = year / n;
    const at = instant(h, sql`${sql.lit(now - year)} + seq.n * ${sql.lit(step)}`);
    const bucket = sql`(seq.n * 7919) % 100`;
    const actor = sql`case when ${bucket} < 60 then ${MEMBER_PREFIX} || ((seq.n * 31) % ${sql.lit(STAFF)})
      when ${bucket} < 90 then ${MEMBER_PREFIX} || ((seq.n * 7877) % ${sql.lit(members)}) else null end`;
    const kind = sql`(seq.n * 104729) % 100`;
    const type = sql`case when ${kind} < 75 then 'ad' when ${kind} < 90 then 'user' when ${kind} < 95 then 'report' else 'category' end`;
    const subject = sql`case when ${kind} < 75 then cast(1 + (seq.n * 6151) % ${sql.lit(maxAd)} as varchar(64))
      when ${kind} < 90 then ${MEMBER_PREFIX} || ((seq.n * 3571) % ${sql.lit(members)})
      else cast(1 + seq.n % 500 as varchar(64)) end`;
    const action = sql`case when ${kind} >= 75 then case when seq.n % 2 = 0 then 'update' else 'resolve' end
      when ${bucket} < 60 then case when seq.n % 5 = 0 then 'reject' else 'approve' end
      when ${bucket} < 90 then 'edit' else 'expire' end`;
    const changes =
      h.dialect === 'postgres'
        ? sql`'{"status":["pending","published"],"title":["Old title","New title"]}'::jsonb`
        : sql`'{"status":["pending","published"],"title":["Old title","New title"]}'`;
    await sql`insert into revisions (actor_id, subject_type, subject_id, action, changes, ip, user_agent, created_at)
      select ${actor}, ${type}, ${subject}, ${action}, ${changes}, '10.0.0.1', 'souq-bench', ${at}
      from ${numbers(h, revisions, n)}`.execute(h.db);
  }
  // Reports: over the last 90 days; a quarter still open, on ads (80 %) and members (20 %).
  const reports = await count(h, 'reports');
  if (reports < sizes.reports && maxAd > 0) {
    const n = sizes.reports - reports;
    console.log(`Adding ${n} bench reports…`);
    const at = instant(h, sql`${sql.lit(now - 90 * 86_400)} + seq.n * ${sql.lit((90 * 86_400) / n)}`);
    await sql`insert into reports (reporter_id, ad_id, user_id, reason, note, status, handled_by, created_at, updated_at)
      select ${MEMBER_PREFIX} || ((seq.n * 7877) % ${sql.lit(members)}),
             case when seq.n % 5 = 0 then null else 1 + (seq.n * 6151) % ${sql.lit(maxAd)} end,
             case when seq.n % 5 = 0 then ${MEMBER_PREFIX} || ((seq.n * 3571) % ${sql.lit(members)}) else null end,
             case seq.n % 4 when 0 then 'scam' when 1 then 'duplicate' when 2 then 'offensive' else 'other' end,
             'Reported by the bench', case when seq.n % 4 = 0 then 'open' when seq.n % 4 = 1 then 'dismissed' else 'resolved' end,
             case when seq.n % 4 = 0 then null else ${MEMBER_PREFIX} || (seq.n % ${sql.lit(STAFF)}) end, ${at}, ${at}
      from ${numbers(h, reports, n)}
      where exists (select 1 from ads where ads.id = 1 + (seq.n * 6151) % ${sql.lit(maxAd)})`.execute(h.db);
  }
  // As autovacuum would leave them after a bulk load: statistics, and the visibility map.
  if (h.dialect === 'postgres') await sql`vacuum analyze`.execute(h.db);
  else await sql`analyze`.execute(h.db);
  return Math.round((performance.now() - started) / 100) / 10;
}

/** Times each list one call at a time: three unmeasured calls, then for `seconds` (at most 500 calls). */
export async function benchAdmin(h: DatabaseHandle, seconds = 3, lists = ADMIN_LISTS): Promise<AdminBench> {
  const seed_seconds = await seedAdminBench(h);
  const rows: AdminBenchRow[] = [];
  for (const list of lists) {
    for (let i = 0; i < 3; i++) await list.run(h);
    const times: number[] = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until && times.length < 500) {
      const t = performance.now();
      await list.run(h);
      times.push(performance.now() - t);
    }
    const max_ms = Math.round(Math.max(...times) * 10) / 10;
    rows.push({ name: list.name, runs: times.length, ...summarise(times), max_ms });
  }
  return {
    members: await count(h, 'users'),
    revisions: await count(h, 'revisions'),
    reports: await count(h, 'reports'),
    seed_seconds,
    rows,
  };
}

export function printAdminBench(b: AdminBench) {
  const n = (x: number) => x.toLocaleString('en-US').replaceAll(',', ' ');
  console.log(
    `\nBack office: each list's query and the dashboard's, one call at a time (${n(b.members)} members, ` +
      `${n(b.revisions)} revisions, ${n(b.reports)} reports${b.seed_seconds ? `; topped up in ${b.seed_seconds} s` : ''})\n`,
  );
  const cell = (v: string | number, w: number) => String(v).padStart(w);
  console.log(['list'.padEnd(44), cell('runs', 6), cell('p50 ms', 8), cell('p95 ms', 8), cell('max ms', 8)].join(' '));
  for (const r of b.rows) {
    console.log(
      [r.name.padEnd(44), cell(r.runs, 6), cell(r.p50_ms, 8), cell(r.p95_ms, 8), cell(r.max_ms, 8)].join(' ') +
        (r.p95_ms > ADMIN_TARGET_MS ? '  MISS' : ''),
    );
  }
}

/** The target of docs/performance.md, as the bench's last table checks it. */
export function adminChecks(b: AdminBench) {
  const worst = b.rows.reduce<AdminBenchRow | null>((w, r) => (w === null || r.p95_ms > w.p95_ms ? r : w), null);
  return [
    {
      figure: `every admin list and the dashboard, p95 ≤ ${ADMIN_TARGET_MS} ms`,
      measured: worst ? `worst ${worst.p95_ms} ms (${worst.name})` : 'not measured',
      ok: worst ? worst.p95_ms <= ADMIN_TARGET_MS : null,
    },
  ];
}

// Alone: the bench database of `npm run bench` (seeded and cached the same way), then this section.
if (import.meta.main) {
  const argv = process.argv.slice(2);
  const option = (name: string): string | null => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? (argv[i + 1] ?? '') : null;
  };
  const database = await prepareBenchDatabase({
    ads: Number(option('ads') ?? 0),
    db: option('db'),
    postgres: option('postgres'),
    inPlace: argv.includes('--in-place'),
    cacheDir: option('cache') ?? path.join(tmpdir(), 'souq-bench'),
  });
  try {
    const config = loadConfig({ ...process.env, NODE_ENV: 'production', ...database.env });
    const handle = openDatabase(config.database, { poolSize: 2 });
    try {
      const result = await benchAdmin(handle, Number(option('duration') ?? 3));
      console.log(`\n${database.label}`);
      printAdminBench(result);
    } finally {
      await handle.close();
    }
  } finally {
    await database.cleanup();
  }
}
