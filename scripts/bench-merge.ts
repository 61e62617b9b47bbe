// `npm run bench:merge -- [--ads 100000] [--postgres postgres://…/db]`: the back office's city merge
// (server/domain/admin/places.ts) on a fresh database of N bulk-seeded ads (SQLite in a temporary
// folder, or a new schema on the PostgreSQL server given, dropped at the end). Every ad is put in
// one city (their text rows written with its key, as placing them there would: not timed), the
// city is renamed once through the back office, then merged into another while the search engine
// of this process is built and warm. Prints the seconds of the rename, of the merge, and of the
// first search after it (the index catching up with the moved ads), and checks what visitors see
// afterwards: the city facet and filter, text search by the old and the new name, the sitemap's
// dates, and the page cache's signal.
// docs/product/back-office.md, "Cities", holds the figures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseSearchQuery } from '../app/lib/search-query.ts';
import { openDatabase } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedBulkAds } from '../server/db/seed/ads.ts';
import { seedCatalogue } from '../server/db/seed/index.ts';
import { rewriteAdTerms } from '../server/domain/admin/catalogue-effects.ts';
import { createCity, mergeCity, updateCity } from '../server/domain/admin/places.ts';
import { onCatalogueChange } from '../server/domain/catalogue-changes.ts';
import { search, searchEngine } from '../server/domain/search/service.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const count = Number(arg('--ads') ?? 100_000);
const postgres = arg('--postgres');

let cleanup: () => Promise<void>;
let handle: ReturnType<typeof openDatabase>;
if (postgres) {
  const schema = `bench_merge_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`create schema ${schema}`);
  const u = new URL(postgres);
  u.searchParams.set('options', `-c search_path=${schema}`);
  handle = openDatabase({ kind: 'postgres', url: u.toString() }, { poolSize: 4 });
  cleanup = () => run(`drop schema ${schema} cascade`);
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'souq-bench-merge-'));
  handle = openDatabase({ kind: 'sqlite', file: path.join(dir, 'souq.db') });
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}
const { db, dialect } = handle;
const secondsSince = (t: number) => (performance.now() - t) / 1000;
const q = (params: string) => parseSearchQuery(new URLSearchParams(params));
const checks: [string, boolean][] = [];

try {
  await migrateToLatest(db, dialect);
  await seedCatalogue(db);
  let t = performance.now();
  await seedBulkAds(handle, { count });
  console.log(`${dialect}: ${count} ads seeded in ${secondsSince(t).toFixed(1)} s`);
  // Revisions name their actor: one of the seeded sellers stands in for the staff member.
  const someone = await db.selectFrom('users').select('id').limit(1).executeTakeFirstOrThrow();
  const actor = { id: someone.id, ip: '127.0.0.1', userAgent: 'bench-merge' };

  const place = (slug: string, en: string, ar: string, lat: number, lng: number) => ({
    slug,
    name_en: en,
    name_ar: ar,
    lat,
    lng,
  });
  const from = await createCity(db, actor, place('bench-from', 'Fromtown', 'مدينةاولى', 31, 13));
  const into = await createCity(db, actor, place('bench-into', 'Intoville', 'مدينةثانية', 32, 14));
  // Setup (not measured): every ad in `from`, text rows included; then the back office renames it.
  t = performance.now();
  await db.updateTable('ads').set({ city_id: from, area_id: null }).execute();
  const all = (await db.selectFrom('ads').select('id').orderBy('id').execute()).map((r) => r.id);
  for (let i = 0; i < all.length; i += 10_000) await rewriteAdTerms(db, { adIds: all.slice(i, i + 10_000) });
  console.log(`every ad put in one city (setup) in ${secondsSince(t).toFixed(1)} s`);
  const renamedFrom = await search(handle, q('q=fromtown'));
  checks.push([
    `setup: text search by the city's first name finds its ads (${renamedFrom.total})`,
    renamedFrom.total > 0,
  ]);
  t = performance.now();
  await updateCity(db, actor, from, place('bench-from', 'Oldtown', 'مدينةقديمة', 31, 13));
  const rename = secondsSince(t);
  const published = Number(
    (
      await db
        .selectFrom('ads')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'published')
        .executeTakeFirstOrThrow()
    ).n,
  );
  // A warm engine, built before the merge, as a running site has it.
  searchEngine(handle).forgetCatalogue();
  const before = await search(handle, q('city=bench-from'));
  checks.push([`before: city filter finds every published ad (${before.total})`, before.total === published]);
  await new Promise((r) => setTimeout(r, 1100));

  let heard = 0;
  const stop = onCatalogueChange(() => heard++);
  const started = new Date();
  t = performance.now();
  const cpu = process.cpuUsage();
  const moved = await mergeCity(db, dialect, actor, from, into);
  const merge = secondsSince(t);
  const used = process.cpuUsage(cpu);
  // This process's CPU time: on SQLite the database works in it too, so this is the merge's work
  // whatever else the machine runs (wall time on a shared machine is not).
  const cpuSeconds = (used.user + used.system) / 1e6;
  stop();
  t = performance.now();
  const after = await search(handle, q('city=bench-into'));
  const catchUp = secondsSince(t);

  checks.push([`merge moved every ad (${moved} of ${count})`, moved === count]);
  checks.push([`city filter finds the published ads in the merged city (${after.total})`, after.total === published]);
  const facet = after.facets.cities.find((c) => c.slug === 'bench-into')?.count ?? 0;
  checks.push([`city facet counts them (${facet})`, facet === published]);
  const firstName = await search(handle, q('q=fromtown'));
  checks.push([`text search by the name before the rename finds none (${firstName.total})`, firstName.total === 0]);
  const oldName = await search(handle, q('q=oldtown'));
  checks.push([`text search by the old name finds none (${oldName.total})`, oldName.total === 0]);
  const newName = await search(handle, q('q=intoville'));
  checks.push([
    `text search by the new name finds them (${newName.total}${newName.exact ? '' : '+'})`,
    newName.total > 0 && (newName.exact ? newName.total === published : true),
  ]);
  // The sitemap dates each ad (and its chunk: server/domain/sitemap.ts) by `updated_at`.
  const stale = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('updated_at', '<', started)
    .executeTakeFirstOrThrow();
  checks.push([`sitemap: every moved ad dated at or after the merge (${stale.n} older)`, Number(stale.n) === 0]);
  checks.push([`page cache and search catalogue told once (${heard})`, heard === 1]);

  console.log(
    `rename of a city of ${count} ads: ${rename.toFixed(1)} s; merge: ${merge.toFixed(1)} s ` +
      `(CPU time of this process ${cpuSeconds.toFixed(1)} s; load average ${loadavg()[0]?.toFixed(1)}); ` +
      `first search after it (index catch-up): ${catchUp.toFixed(1)} s; search right ${(merge + catchUp).toFixed(1)} s ` +
      `after the merge began`,
  );
  for (const [what, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
} finally {
  await handle.close();
  await cleanup();
}
