// The job queue as staff see it (docs/product/back-office.md, "Jobs"): the jobs of one status,
// newest first, with their attempts and last error, and the retry of a dead job. The queue itself
// is server/jobs/queue.ts (ADR 0006).

import { JOB_STATUSES, type JobStatus } from '../../../app/lib/admin-lists.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toIso, toJson, toNumber } from '../../db/values.ts';
import type { Actor } from '../ads/rules.ts';
import { recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';
import { containsPattern, decodeCursor, keysetPage } from './keyset.ts';

export { JOB_STATUSES, type JobStatus };

export const JOBS_PAGE_SIZE = 50;

export interface JobRow {
  id: number;
  name: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  /** When it runs (pending), ran last (running), or was due when it died (dead), ISO. */
  run_at: string;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
  /** The payload as JSON text, cut to 500 characters (mail payloads are long). */
  payload: string;
}

const iso = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(toNumber(ms)).toISOString());

/** One page of the jobs (of `status`, or all), newest first, searched by name or error. */
export async function listJobs(
  db: DB,
  query: { status: JobStatus | null; q: string; after: string | null },
): Promise<{ rows: JobRow[]; next: string | null }> {
  let base = db
    .selectFrom('jobs')
    .select([
      'id',
      'name',
      'status',
      'attempts',
      'max_attempts',
      'run_at',
      'last_error',
      'created_at',
      'finished_at',
      'payload',
    ]);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.q) {
    const p = containsPattern(query.q);
    base = base.where((eb) =>
      eb.or([eb(eb.fn('lower', ['name']), 'like', p), eb(eb.fn('lower', ['last_error']), 'like', p)]),
    );
  }
  const page = await keysetPage(base, {
    column: 'id',
    id: 'id',
    direction: 'desc',
    cursor: decodeCursor(query.after),
    limit: JOBS_PAGE_SIZE,
    keyOf: (r) => ({ value: Number(r.id), id: Number(r.id) }),
  });
  return {
    rows: page.rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      status: r.status as JobStatus,
      attempts: toNumber(r.attempts),
      max_attempts: toNumber(r.max_attempts),
      run_at: iso(r.run_at) as string,
      last_error: r.last_error,
      created_at: toIso(r.created_at),
      finished_at: iso(r.finished_at),
      payload: JSON.stringify(toJson<unknown>(r.payload, {})).slice(0, 500),
    })),
    next: page.next,
  };
}

/** How many jobs each status holds. */
export async function jobCounts(db: DB): Promise<Record<JobStatus, number>> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .where('status', 'in', ['pending', 'running', 'dead'])
    .groupBy('status')
    .execute();
  const counts: Record<JobStatus, number> = { pending: 0, running: 0, dead: 0, done: 0 };
  for (const r of rows) counts[r.status as JobStatus] = toNumber(r.n);
  return counts;
}

/**
 * Puts a dead job back in the queue: pending, due now, its attempts counted from zero, its last
 * error kept until it runs. A job that is not dead (retried meanwhile, or never dead) is refused.
 * A scheduled job whose schedule already has a pending successor runs without its unique key.
 */
export async function retryJob(db: DB, actor: Actor, id: number, now = Date.now()): Promise<void> {
  await withTransaction(db, async (tx) => {
    const job = await tx
      .selectFrom('jobs')
      .select(['id', 'name', 'status', 'attempts', 'unique_key'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!job) throw new NotFound('errors.not-found');
    if (job.status !== 'dead') throw new Invalid({ form: ['admin:jobs.errors.not-dead'] });
    let uniqueKey = job.unique_key;
    if (uniqueKey !== null) {
      const open = await tx
        .selectFrom('jobs')
        .select('id')
        .where('unique_key', '=', uniqueKey)
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      if (open) uniqueKey = null;
    }
    const moved = await tx
      .updateTable('jobs')
      .set({
        status: 'pending',
        attempts: 0,
        run_at: now,
        finished_at: null,
        locked_by: null,
        locked_until: null,
        unique_key: uniqueKey,
      })
      .where('id', '=', id)
      .where('status', '=', 'dead')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new Invalid({ form: ['admin:jobs.errors.not-dead'] });
    await recordRevision(tx, actor, { type: 'job', id }, 'retry', {
      status: ['dead', 'pending'],
      attempts: [toNumber(job.attempts), 0],
    });
  });
}
