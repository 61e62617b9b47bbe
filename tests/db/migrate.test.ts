// The migrator (server/db/migrate.ts) on PostgreSQL: the tables a migration rewrote
// (`vacuumAfter`) are vacuumed and analysed once it has committed, and only then.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

/** When the schema's `ad_words` was last vacuumed by hand (not by autovacuum), or null. */
async function lastVacuum(db: TestDatabase['db']): Promise<Date | null> {
  await sql`select pg_stat_clear_snapshot()`.execute(db);
  const { rows } = await sql<{ at: Date | null }>`
    select last_vacuum as at from pg_stat_user_tables
    where relname = 'ad_words' and schemaname = current_schema()`.execute(db);
  return rows[0]?.at ?? null;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('on postgres', () => {
  it('vacuums the word list after the migration that fills it again, not on a later run', async () => {
    database = await createTestDatabase('postgres', { migrate: false });
    expect(await migrateToLatest(database.db, 'postgres')).toContain('0029_catalogue_keys');
    const first = await lastVacuum(database.db);
    expect(first).toBeInstanceOf(Date);

    // Nothing left to apply: nothing vacuumed again.
    expect(await migrateToLatest(database.db, 'postgres')).toEqual([]);
    expect(await lastVacuum(database.db)).toEqual(first);
  });
});
