// npm run db:migrate | npm run db:seed — same configuration as the server.
//   npm run db:seed                  catalogue and cities, then the demo ads when there are no ads
//   npm run db:seed -- --no-ads      catalogue and cities only
//   npm run db:seed -- --no-photos   demo ads without photos (quicker)
//   npm run db:seed -- --ads 100000  catalogue, then 100 000 bulk ads for benchmarks (always added)
import { loadConfig } from '../config.ts';
import { createStorage } from '../media/storage.ts';
import { openDatabase } from './index.ts';
import { migrateToLatest } from './migrate.ts';
import { type SeedAdsReport, seedBulkAds, seedDemoAds } from './seed/ads.ts';
import { seedCatalogue } from './seed/index.ts';

const USAGE = 'usage: node server/db/cli.ts migrate | seed [--no-ads] [--no-photos] [--ads N]';
const [command, ...args] = process.argv.slice(2);
if (command !== 'migrate' && command !== 'seed') {
  console.error(USAGE);
  process.exit(2);
}
const flag = (name: string) => args.includes(`--${name}`);
const adsAt = args.indexOf('--ads');
const bulk = adsAt >= 0 ? Number(args[adsAt + 1]) : null;
if (bulk !== null && !(Number.isSafeInteger(bulk) && bulk > 0)) {
  console.error(`--ads needs a positive whole number\n${USAGE}`);
  process.exit(2);
}

const summary = (r: SeedAdsReport) =>
  `${r.ads} ads (${Object.entries(r.statuses)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ')}), ${r.photos} photos, ${r.sellers} sellers in ${(r.ms / 1000).toFixed(1)} s`;

const config = loadConfig();
const handle = openDatabase(config.database, { poolSize: 2 });
try {
  const applied = await migrateToLatest(handle.db, handle.dialect);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date.');
  if (command === 'seed') {
    const r = await seedCatalogue(handle.db);
    console.log(
      `Seeded ${r.taxonomies} taxonomies, ${r.categories} categories, ${r.attributes} attributes, ${r.cities} cities, ${r.areas} areas.`,
    );
    const storage = flag('no-photos') ? undefined : createStorage(config);
    if (bulk !== null) {
      const report = await seedBulkAds(handle, { count: bulk, storage, log: (m) => console.log(m) });
      console.log(`Added ${summary(report)}.`);
    } else if (!flag('no-ads')) {
      const report = await seedDemoAds(handle, { storage, log: (m) => console.log(m) });
      console.log(report ? `Seeded demo ${summary(report)}.` : 'The database has ads already: no demo ads added.');
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
