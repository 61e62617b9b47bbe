// npm run db:migrate | npm run db:seed — same configuration as the server.
import { loadConfig } from '../config.ts';
import { openDatabase } from './index.ts';
import { migrateToLatest } from './migrate.ts';
import { seedCatalogue } from './seed/index.ts';

const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: node server/db/cli.ts migrate|seed');
  process.exit(2);
}
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
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
