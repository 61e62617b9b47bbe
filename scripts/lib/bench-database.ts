// The database `npm run bench` measures: a seeded one of a given size kept in a cache folder (SQLite)
// or as a template database (PostgreSQL), or one given with --db. The server writes while it is
// measured (bench members, view counts, rate limits), so every run works on a copy of the seeded
// database, and a SQLite file given with --db is copied too unless --in-place says otherwise.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface BenchDatabaseOptions {
  /** Ads to seed (`npm run db:seed -- --ads N --no-photos`); 0: the catalogue alone. */
  ads: number;
  /** An existing database: a SQLite file or a postgres:// URL. */
  db: string | null;
  /** With --ads: seed into PostgreSQL on this server (postgres://user@host:port) instead of SQLite. */
  postgres: string | null;
  /** Use a SQLite file given with --db as it is, without copying it. */
  inPlace: boolean;
  /** Where seeded SQLite databases are kept between runs. */
  cacheDir: string;
}

export interface BenchDatabase {
  dialect: 'sqlite' | 'postgres';
  /** What was measured, for the table's header. */
  label: string;
  /** DATA_DIR and DATABASE_URL for the server (and for opening the database here). */
  env: { DATA_DIR: string; DATABASE_URL: string };
  /** Seconds the seeding took in this run, or null when a seeded database was reused. */
  seedSeconds: number | null;
  /** Drops this run's copy. */
  cleanup: () => Promise<void>;
}

const seedCommand = (ads: number) => ['server/db/cli.ts', 'seed', '--ads', String(ads), '--no-photos'];

/** Runs the seed command against `env`; throws when it fails. Returns the seconds it took. */
function seed(ads: number, env: Record<string, string>): number {
  console.log(`Seeding ${ads} ads (npm run db:seed -- --ads ${ads} --no-photos)…`);
  const started = performance.now();
  cli(ads > 0 ? seedCommand(ads) : ['server/db/cli.ts', 'seed', '--no-ads'], env, 'seeding');
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(`Seeded in ${seconds} s.`);
  return seconds;
}

/**
 * Brings a seeded database kept from an earlier run up to the latest migration (a new one may
 * rebuild an index: better once here than at every run's server start).
 */
function migrate(env: Record<string, string>) {
  cli(['server/db/cli.ts', 'migrate'], env, 'migrating the seeded database');
}

/** Runs the database command line (server/db/cli.ts) against `env`; throws when it fails. */
function cli(args: string[], env: Record<string, string>, what: string) {
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
  });
  if (r.status !== 0) throw new Error(`${what} failed`);
}

/** Copies a SQLite database (and its write-ahead log, if any) into `dir`, checking the disk first. */
function copySqlite(file: string, dir: string): string {
  const size = statSync(file).size;
  const free = (() => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  })();
  if (free < size * 1.2) {
    throw new Error(
      `not enough disk to copy ${file} (${Math.round(size / 1e6)} MB, ${Math.round(free / 1e6)} MB free in ${dir}); ` +
        'use --in-place on a copy you made',
    );
  }
  const target = path.join(dir, 'souq.db');
  const started = performance.now();
  copyFileSync(file, target);
  for (const suffix of ['-wal']) {
    if (existsSync(file + suffix) && statSync(file + suffix).size > 0) copyFileSync(file + suffix, target + suffix);
  }
  if (size > 100e6) console.log(`Copied ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return target;
}

/** A database on the PostgreSQL server of `url`. */
function pgUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function pgAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl(url, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseExists = (c: pg.Client, name: string) =>
  c.query('select 1 from pg_database where datname = $1', [name]).then((r) => (r.rowCount ?? 0) > 0);

export async function prepareBenchDatabase(o: BenchDatabaseOptions): Promise<BenchDatabase> {
  mkdirSync(o.cacheDir, { recursive: true });
  const runDir = mkdtempSync(path.join(o.cacheDir, 'run-'));
  const removeRunDir = async () => rmSync(runDir, { recursive: true, force: true });

  // An existing database.
  if (o.db !== null) {
    if (/^postgres(ql)?:\/\//.test(o.db)) {
      console.warn('Using the PostgreSQL database as it is: the run adds bench members and view counts to it.');
      return {
        dialect: 'postgres',
        label: `PostgreSQL ${new URL(o.db).pathname.slice(1)}`,
        env: { DATA_DIR: runDir, DATABASE_URL: o.db },
        seedSeconds: null,
        cleanup: removeRunDir,
      };
    }
    const file = path.resolve(o.db.replace(/^(sqlite|file):(\/\/)?/, ''));
    if (!existsSync(file)) throw new Error(`no such SQLite file: ${file}`);
    const used = o.inPlace ? file : copySqlite(file, runDir);
    if (o.inPlace) console.warn(`Using ${file} in place: the run writes to it (bench members, view counts).`);
    return {
      dialect: 'sqlite',
      label: `SQLite ${path.basename(file)}${o.inPlace ? '' : ' (a copy)'}`,
      env: { DATA_DIR: runDir, DATABASE_URL: `sqlite:${used}` },
      seedSeconds: null,
      cleanup: removeRunDir,
    };
  }

  // N ads on PostgreSQL: seeded once into souq_bench_<N>, each run on a copy made from it as a template.
  if (o.postgres !== null) {
    const name = `souq_bench_${o.ads}`;
    const run = `${name}_run`;
    const server = o.postgres;
    let seedSeconds: number | null = null;
    if (!(await pgAdmin(server, (c) => databaseExists(c, name)))) {
      const seeding = `${name}_seeding`;
      await pgAdmin(server, async (c) => {
        await c.query(`drop database if exists ${seeding}`);
        await c.query(`create database ${seeding}`);
      });
      seedSeconds = seed(o.ads, { DATA_DIR: runDir, DATABASE_URL: pgUrl(server, seeding) });
      await pgAdmin(server, (c) => c.query(`alter database ${seeding} rename to ${name}`));
    } else {
      console.log(`Reusing the seeded database ${name} (drop it to seed again).`);
      migrate({ DATA_DIR: runDir, DATABASE_URL: pgUrl(server, name) });
    }
    await pgAdmin(server, async (c) => {
      await c.query(`drop database if exists ${run}`);
      await c.query(`create database ${run} template ${name}`);
    });
    return {
      dialect: 'postgres',
      label: `PostgreSQL, ${o.ads} seeded ads`,
      env: { DATA_DIR: runDir, DATABASE_URL: pgUrl(server, run) },
      seedSeconds,
      cleanup: async () => {
        await removeRunDir();
        await pgAdmin(server, (c) => c.query(`drop database if exists ${run}`));
      },
    };
  }

  // N ads on SQLite: seeded once into the cache folder, each run on a copy.
  let seedSeconds: number | null = null;
  const seeded = path.join(o.cacheDir, `sqlite-${o.ads}`);
  if (!existsSync(path.join(seeded, 'souq.db'))) {
    const seeding = `${seeded}.seeding`;
    rmSync(seeding, { recursive: true, force: true });
    mkdirSync(seeding, { recursive: true });
    seedSeconds = seed(o.ads, { DATA_DIR: seeding, DATABASE_URL: `sqlite:${path.join(seeding, 'souq.db')}` });
    renameSync(seeding, seeded);
  } else {
    console.log(`Reusing the seeded database ${seeded} (delete it to seed again).`);
    migrate({ DATA_DIR: seeded, DATABASE_URL: `sqlite:${path.join(seeded, 'souq.db')}` });
  }
  const used = copySqlite(path.join(seeded, 'souq.db'), runDir);
  return {
    dialect: 'sqlite',
    label: o.ads > 0 ? `SQLite, ${o.ads} seeded ads` : 'SQLite, the catalogue without ads',
    env: { DATA_DIR: runDir, DATABASE_URL: `sqlite:${used}` },
    seedSeconds,
    cleanup: removeRunDir,
  };
}
