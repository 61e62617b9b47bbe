// The durable job queue (ADR 0006): one table, claimed with FOR UPDATE SKIP LOCKED on
// PostgreSQL and by a single atomic UPDATE on SQLite (one writer at a time). Times are epoch
// milliseconds so both dialects compare them the same way.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';
import { createdAt, jsonType, timestampType, withId } from './helpers.ts';

export const name = '0005_jobs';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await withId(db.schema.createTable('jobs'), d)
    .addColumn('queue', 'varchar(50)', (c) => c.notNull().defaultTo('default'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('payload', jsonType(d), (c) => c.notNull())
    // pending → running → done | pending (retry) | dead
    .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    /** At most one pending or running job per key (scheduled jobs, de-duplicated work). */
    .addColumn('unique_key', 'varchar(200)')
    .addColumn('created_at', timestampType(d), createdAt(d))
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'queue', 'run_at']).execute();
  await db.schema
    .createIndex('jobs_unique_open')
    .on('jobs')
    .column('unique_key')
    .unique()
    .where(sql<boolean>`status in ('pending', 'running')`)
    .execute();
}
