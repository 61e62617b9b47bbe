// The durable job queue (docs/decisions/0006-jobs-in-the-database.md). Work that must happen after a change —
// image variants, expiry, reminders, counters, mails — is a row in `jobs`, written in the same
// transaction as the change: it exists if and only if the change committed, and a worker sees it
// only after the commit. Workers claim due jobs one at a time, retry failures with exponential
// backoff and keep jobs that never succeed as `dead` for staff to see. Job names and payloads are
// typed in ./registry.ts; the app enqueues through it. This module is the untyped machinery.
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { DB, DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { txHooks } from '../db/transaction.ts';
import type { Logger } from '../logger.ts';

// Workers of this process wait on this between polls: a job enqueued here wakes them at once (once
// its transaction committed), so mail and other work start without waiting for the next poll.
// Jobs enqueued by other processes are found by polling.
const wakeups = new EventEmitter();
wakeups.setMaxListeners(50);

/** Wakes this process's idle workers (called for every job enqueued here, after its commit). */
export function notifyJobs(): void {
  wakeups.emit('job');
}

/** A failure retrying cannot fix (e.g. a payload its schema refuses): the job is dead at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface EnqueueOptions {
  /** When to run, epoch ms (default: now). */
  runAt?: number;
  /** Give up after this many attempts (default 5). */
  maxAttempts?: number;
  /** At most one pending or running job per key; a second enqueue with the key is ignored. */
  uniqueKey?: string;
  queue?: string;
}

/**
 * Adds a job (untyped: the app uses `enqueue` of ./registry.ts). Pass the transaction of the change
 * it belongs to (server/db/transaction.ts): the job exists if and only if the change commits, and
 * this process's workers are woken after the commit. Returns its id, or null when de-duplicated.
 */
export async function enqueueJob(
  db: DB,
  name: string,
  payload: unknown = {},
  options: EnqueueOptions = {},
): Promise<number | null> {
  const row = await db
    .insertInto('jobs')
    .values({
      queue: options.queue ?? 'default',
      name,
      payload: JSON.stringify(payload ?? {}),
      run_at: options.runAt ?? Date.now(),
      max_attempts: options.maxAttempts ?? 5,
      unique_key: options.uniqueKey ?? null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) {
    const hooks = txHooks(db);
    if (hooks) hooks.afterCommit(notifyJobs);
    // In a transaction opened some other way the job is not visible yet: the poll finds it.
    else if (!db.isTransaction) notifyJobs();
  }
  return row ? Number(row.id) : null;
}

/**
 * Lets a running job's unique key go: from now on a job enqueued with the same key is added, not
 * ignored. For a job that reads its state first and may then enqueue its own successor (the key
 * otherwise holds until it finishes), or that must not swallow work asked for while it runs. If
 * the job then fails, its retry runs without the key.
 */
export async function releaseUniqueKey(db: DB, jobId: number): Promise<void> {
  await db.updateTable('jobs').set({ unique_key: null }).where('id', '=', jobId).execute();
}

export interface JobContext {
  id: number;
  attempt: number;
  db: Kysely<Database>;
  dialect: DialectName;
  logger: Logger;
  /** The worker's clock (epoch ms): what "now" is for a job that depends on the time of day. */
  now: () => number;
}

export type JobHandler = (payload: any, job: JobContext) => Promise<void>;

export interface Schedule {
  name: string;
  /** Runs every `everySeconds`, the first time shortly after a worker starts. */
  everySeconds: number;
}

/** Seconds before retry n (1-based): 2^n × 10 s, capped at one hour, with ±20 % jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(3600, 10 * 2 ** attempt) * 1000;
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface WorkerOptions {
  db: Kysely<Database>;
  dialect: DialectName;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  schedules?: Schedule[];
  queue?: string;
  /** Idle poll interval (default 1 s); a busy worker goes straight to the next job. */
  pollMs?: number;
  /** A running job whose worker died is taken back after this long (default 5 min). */
  lockMs?: number;
  now?: () => number;
}

export interface Worker {
  /** Claims and runs due jobs until none is left; returns how many ran. For tests and `npm run jobs:work`. */
  drain(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, dialect, logger, handlers } = options;
  const queue = options.queue ?? 'default';
  const now = options.now ?? Date.now;
  const lockMs = options.lockMs ?? 5 * 60_000;
  const id = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  /** A job was enqueued in this process while the worker was busy: look again before sleeping. */
  let again = false;

  /** Takes the next due job (or one whose worker's lock expired) and marks it running. */
  async function claim() {
    const at = now();
    const due = db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', queue)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', at)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', at)]),
        ]),
      )
      .orderBy('run_at')
      .limit(1);
    const picked = dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    return db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: id,
        locked_until: at + lockMs,
        attempts: sql`attempts + 1`,
      })
      .where('id', '=', (eb) => eb.selectFrom(picked.as('due')).select('due.id'))
      .returningAll()
      .executeTakeFirst();
  }

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    const handler = handlers[job.name];
    const attempt = Number(job.attempts);
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}"`);
      const payload = typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload;
      await handler(payload, { id: Number(job.id), attempt, db, dialect, logger, now });
      await db
        .updateTable('jobs')
        .set({ status: 'done', finished_at: now(), locked_by: null, locked_until: null, last_error: null })
        .where('id', '=', job.id)
        .execute();
    } catch (error) {
      const dead = attempt >= Number(job.max_attempts) || error instanceof PermanentJobError;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await db
        .updateTable('jobs')
        .set({
          status: dead ? 'dead' : 'pending',
          run_at: dead ? Number(job.run_at) : now() + backoffMs(attempt),
          finished_at: dead ? now() : null,
          locked_by: null,
          locked_until: null,
          last_error: message.slice(0, 2000),
        })
        .where('id', '=', job.id)
        .execute();
      logger[dead ? 'error' : 'warn'](
        { job: job.name, id: job.id, attempt, err: error },
        dead ? 'job dead' : 'job failed, will retry',
      );
    }
    const schedule = options.schedules?.find((s) => s.name === job.name);
    if (schedule) {
      await enqueueJob(
        db,
        schedule.name,
        {},
        { runAt: now() + schedule.everySeconds * 1000, uniqueKey: `schedule:${schedule.name}`, queue },
      );
    }
    return true;
  }

  async function drain() {
    let count = 0;
    while (await runOne()) count++;
    return count;
  }

  async function seedSchedules() {
    for (const s of options.schedules ?? []) {
      await enqueueJob(db, s.name, {}, { runAt: now(), uniqueKey: `schedule:${s.name}`, queue });
    }
  }

  const loop = async () => {
    timer = undefined;
    if (stopped) return;
    again = false;
    try {
      await drain();
    } catch (err) {
      logger.error({ err }, 'job worker error');
    }
    if (!stopped) timer = setTimeout(tick, again ? 0 : (options.pollMs ?? 1000));
  };
  const tick = () => {
    running = loop();
  };
  const wake = () => {
    if (stopped) return;
    if (timer) {
      clearTimeout(timer);
      tick();
    } else again = true;
  };

  return {
    drain: async () => {
      await seedSchedules();
      return drain();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      wakeups.on('job', wake);
      running = seedSchedules()
        .catch((err) => logger.error({ err }, 'job schedules could not be seeded'))
        .then(loop);
    },
    async stop() {
      stopped = true;
      wakeups.off('job', wake);
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** Forgets finished jobs older than `days` (dead ones are kept for staff). */
export async function pruneJobs(db: Kysely<Database>, days = 7, now = Date.now()) {
  await db
    .deleteFrom('jobs')
    .where('status', '=', 'done')
    .where('finished_at', '<', now - days * 86_400_000)
    .execute();
}
