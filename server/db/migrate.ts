import { type Kysely, sql } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type { DialectName } from './index.ts';
import { migrations } from './migrations/index.ts';

export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  // On PostgreSQL Kysely's bookkeeping tables live in the current schema, so several schemas on
  // one server (tests, tenants) never see each other's migration state.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(migrations.map((m) => [m.name, { up: (tx: Kysely<any>) => m.up(tx, dialect) }])),
    },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '?'} failed: ${String(result.error)}`, {
      cause: result.error,
    });
  }
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (dialect === 'postgres') {
    // What the applied migrations rewrote, vacuumed now that they have committed (`vacuumAfter`).
    const tables = new Set(migrations.filter((m) => applied.includes(m.name)).flatMap((m) => m.vacuumAfter ?? []));
    for (const table of tables) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  }
  return applied;
}
