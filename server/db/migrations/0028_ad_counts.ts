// Counts the back office reads on every view, kept as the rows change instead of counted each time
// (docs/performance.md, "Back office"; ADR 0017):
// - `ad_counts`: ads per (status, taxonomy, city). The moderation queue's tabs sum it, whole or for
//   one taxonomy and/or city, and the dashboard reads its pending total (server/domain/ads/counts.ts);
// - `daily_counts`: ads and members created per UTC day (`kind` 'ads' | 'users', `day` YYYY-MM-DD),
//   the dashboard's charts;
// - `ads.queued_at`: when a pending ad (last) entered review, written with the status history line
//   that says so (server/domain/ads/bookkeeping.ts, recordStatus); the pending tab's order, served
//   by a partial index of the pending ads alone.
//
// Both counters are kept by triggers on `ads` and `users`, in the transaction of the write, so no
// path that inserts, deletes or moves ads (placing, moderation, expiry, bans, account deletion,
// catalogue and city moves, seeds) can leave them behind. SQLite: one trigger per row (a counter row
// updated in place). PostgreSQL: a counter row is changed once per statement, so a bulk write (a
// category move of 100 000 ads, a seed batch) adds one delta per counter row instead of updating
// the same row once per ad (each such update walks the row's earlier versions of the transaction),
// and every statement touches its counter rows in key order (no deadlock between two statements
// that both move ads): inserts and deletes by a trigger per statement over its transition table,
// updates by a row trigger on the moved rows only and a fold at the statement's end (below).
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../index.ts';
import { timestampType } from './helpers.ts';

export const name = '0028_ad_counts';

/** The UTC day of a `created_at` in SQL, as 'YYYY-MM-DD'. */
const dayOf = (d: DialectName, column: string) =>
  d === 'postgres'
    ? sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`)
    : sql.raw(`substr(${column}, 1, 10)`);

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  await db.schema.alterTable('ads').addColumn('queued_at', timestampType(d)).execute();
  // The pending ads' entry into review, as the queue read it before: the newest history line moving
  // the ad to pending, else its creation.
  await sql`
    update ads set queued_at = coalesce(
      (select max(h.created_at) from ad_status_history h where h.ad_id = ads.id and h.to_status = 'pending'),
      ads.created_at)
    where status = 'pending'`.execute(db);
  await db.schema
    .createIndex('ads_queue')
    .on('ads')
    .columns(['queued_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // The pending tab filtered by taxonomy or city, in the same order: small (the pending ads only).
  for (const column of ['taxonomy_id', 'city_id'] as const) {
    await db.schema
      .createIndex(`ads_queue_${column.replace('_id', '')}`)
      .on('ads')
      .columns([column, 'queued_at', 'id'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
  }
  // The other tabs filtered by taxonomy or city, newest first: a range of one index each, so a
  // filter that matches a few ads among a million reads those few (`ads_status_created` of
  // migration 0027 serves the tabs unfiltered).
  await db.schema
    .createIndex('ads_status_taxonomy_created')
    .on('ads')
    .columns(['status', 'taxonomy_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('ads_status_city_created')
    .on('ads')
    .columns(['status', 'city_id', 'created_at', 'id'])
    .execute();
  // The ads with an open report (the queue's "reported" filter): a few thousand ids, read whole.
  await db.schema
    .createIndex('reports_open_ad')
    .on('reports')
    // With the status, so the index alone answers (SQLite reads the status the query names).
    .columns(['ad_id', 'status'])
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // PostgreSQL: those ads' statuses for the filter's tab counts, from an index alone (a few thousand
  // probes; reading each ad's row instead cost 55 ms at a million ads). SQLite reads its rows by id
  // from the table's own b-tree (17 ms).
  if (d === 'postgres') await sql`create index ads_id_status on ads (id) include (status)`.execute(db);

  await db.schema
    .createTable('ad_counts')
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('taxonomy_id', 'integer', (c) => c.notNull())
    .addColumn('city_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ad_counts_pk', ['status', 'taxonomy_id', 'city_id'])
    .execute();
  await db.schema
    .createTable('daily_counts')
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('daily_counts_pk', ['kind', 'day'])
    .execute();
  await sql`
    insert into ad_counts (status, taxonomy_id, city_id, n)
    select status, taxonomy_id, city_id, count(*) from ads group by status, taxonomy_id, city_id`.execute(db);
  for (const table of ['ads', 'users'] as const) {
    await sql`
      insert into daily_counts (kind, day, n)
      select ${table}, ${dayOf(d, 'created_at')}, count(*) from ${sql.table(table)} group by ${dayOf(d, 'created_at')}`.execute(
      db,
    );
  }

  if (d === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function sqliteTriggers(db: Kysely<any>) {
  const adKey = (row: 'new' | 'old') =>
    `status = ${row}.status and taxonomy_id = ${row}.taxonomy_id and city_id = ${row}.city_id`;
  const addAd = `
    insert into ad_counts (status, taxonomy_id, city_id, n) values (new.status, new.taxonomy_id, new.city_id, 1)
      on conflict (status, taxonomy_id, city_id) do update set n = n + 1;`;
  const removeAd = `update ad_counts set n = n - 1 where ${adKey('old')};`;
  const addDay = (kind: string) => `
    insert into daily_counts (kind, day, n) values ('${kind}', substr(new.created_at, 1, 10), 1)
      on conflict (kind, day) do update set n = n + 1;`;
  const removeDay = (kind: string) =>
    `update daily_counts set n = n - 1 where kind = '${kind}' and day = substr(old.created_at, 1, 10);`;
  const statements = [
    `create trigger ad_counts_insert after insert on ads begin ${addAd} ${addDay('ads')} end`,
    `create trigger ad_counts_delete after delete on ads begin ${removeAd} ${removeDay('ads')} end`,
    `create trigger ad_counts_move after update of status, taxonomy_id, city_id on ads
       when old.status is not new.status or old.taxonomy_id is not new.taxonomy_id or old.city_id is not new.city_id
       begin ${removeAd} ${addAd} end`,
    `create trigger ad_counts_redate after update of created_at on ads
       when substr(old.created_at, 1, 10) is not substr(new.created_at, 1, 10)
       begin ${removeDay('ads')} ${addDay('ads')} end`,
    `create trigger user_counts_insert after insert on users begin ${addDay('users')} end`,
    `create trigger user_counts_delete after delete on users begin ${removeDay('users')} end`,
    `create trigger user_counts_redate after update of created_at on users
       when substr(old.created_at, 1, 10) is not substr(new.created_at, 1, 10)
       begin ${removeDay('users')} ${addDay('users')} end`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}

async function postgresTriggers(db: Kysely<any>) {
  await db.schema
    .createTable('ad_count_deltas')
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('taxonomy_id', 'integer', (c) => c.notNull())
    .addColumn('city_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  const day = (t: string) => `to_char(${t}.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  // Deltas per key, applied in key order; a key whose deltas cancel out is left alone.
  const applyAds = (deltas: string) => `
    insert into ad_counts as c (status, taxonomy_id, city_id, n)
      select status, taxonomy_id, city_id, sum(d) from (${deltas}) x
      group by status, taxonomy_id, city_id having sum(d) <> 0 order by status, taxonomy_id, city_id
    on conflict (status, taxonomy_id, city_id) do update set n = c.n + excluded.n;`;
  const applyDays = (kind: string, deltas: string) => `
    insert into daily_counts as c (kind, day, n)
      select '${kind}', day, sum(d) from (${deltas}) x group by day having sum(d) <> 0 order by day
    on conflict (kind, day) do update set n = c.n + excluded.n;`;
  await sql
    .raw(`
    create or replace function ad_counts_follow() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${applyAds('select status, taxonomy_id, city_id, 1 as d from new_ads')}
        ${applyDays('ads', `select ${day('new_ads')} as day, 1 as d from new_ads`)}
      elsif tg_op = 'DELETE' then
        ${applyAds('select status, taxonomy_id, city_id, -1 as d from old_ads')}
        ${applyDays('ads', `select ${day('old_ads')} as day, -1 as d from old_ads`)}
      end if;
      return null;
    end $$`)
    .execute(db);
  // Updates: a row trigger that runs only for the rows whose status, taxonomy or city changed (a
  // view count's update never runs it) writes their deltas to `ad_count_deltas`, and one trigger at
  // the end of the statement folds them into the counters, each counter row once, in key order.
  // (Transition tables would copy every updated row, description and all: a category move of 87 000
  // ads took 30–50 % longer with them.) The deltas live only inside the statement's transaction.
  await sql
    .raw(`
    create or replace function ad_counts_delta() returns trigger language plpgsql as $$
    begin
      insert into ad_count_deltas (status, taxonomy_id, city_id, n)
        values (old.status, old.taxonomy_id, old.city_id, -1), (new.status, new.taxonomy_id, new.city_id, 1);
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`
    create or replace function ad_counts_fold() returns trigger language plpgsql as $$
    begin
      with moved as (delete from ad_count_deltas returning status, taxonomy_id, city_id, n as d)
      ${applyAds('select status, taxonomy_id, city_id, d from moved')}
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`
    create or replace function ad_counts_redate() returns trigger language plpgsql as $$
    begin
      update daily_counts set n = n - 1 where kind = 'ads' and day = ${day('old')};
      insert into daily_counts as c (kind, day, n) values ('ads', ${day('new')}, 1)
        on conflict (kind, day) do update set n = c.n + 1;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`
    create or replace function user_counts_follow() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${applyDays('users', `select ${day('new_users')} as day, 1 as d from new_users`)}
      else
        ${applyDays('users', `select ${day('old_users')} as day, -1 as d from old_users`)}
      end if;
      return null;
    end $$`)
    .execute(db);
  // Members' creation dates never change in the app: a row trigger, which other updates never run.
  await sql
    .raw(`
    create or replace function user_counts_redate() returns trigger language plpgsql as $$
    begin
      update daily_counts set n = n - 1 where kind = 'users' and day = ${day('old')};
      insert into daily_counts as c (kind, day, n) values ('users', ${day('new')}, 1)
        on conflict (kind, day) do update set n = c.n + 1;
      return null;
    end $$`)
    .execute(db);
  const triggers = [
    'create trigger ad_counts_insert after insert on ads referencing new table as new_ads for each statement execute function ad_counts_follow()',
    'create trigger ad_counts_delete after delete on ads referencing old table as old_ads for each statement execute function ad_counts_follow()',
    `create trigger ad_counts_move after update of status, taxonomy_id, city_id on ads for each row
       when (old.status is distinct from new.status or old.taxonomy_id is distinct from new.taxonomy_id
         or old.city_id is distinct from new.city_id)
       execute function ad_counts_delta()`,
    'create trigger ad_counts_fold after update of status, taxonomy_id, city_id on ads for each statement execute function ad_counts_fold()',
    'create trigger ad_counts_redate after update of created_at on ads for each row when (old.created_at is distinct from new.created_at) execute function ad_counts_redate()',
    'create trigger user_counts_insert after insert on users referencing new table as new_users for each statement execute function user_counts_follow()',
    'create trigger user_counts_delete after delete on users referencing old table as old_users for each statement execute function user_counts_follow()',
    'create trigger user_counts_redate after update of created_at on users for each row when (old.created_at is distinct from new.created_at) execute function user_counts_redate()',
  ];
  for (const s of triggers) await sql.raw(s).execute(db);
}
