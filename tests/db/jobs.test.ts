import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/index.ts';
import { jobHandlers, schedules } from '../../server/jobs/app-jobs.ts';
import { backoffMs, createWorker, enqueueJob as enqueue, type JobHandler, pruneJobs } from '../../server/jobs/queue.ts';
import { enqueue as enqueueTyped } from '../../server/jobs/registry.ts';
import { createLogger } from '../../server/logger.ts';
import { createMailer } from '../../server/mail/index.ts';
import { type MailPayload, mailJob } from '../../server/mail/outbox.ts';
import { verifyEmailMail } from '../../server/mail/templates.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { readMails, startSmtpCapture } from '../support/smtp-capture.ts';

/** A job's row by id (null: none, so it throws). */
const jobRow = (db: DB, id: number | null) =>
  db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id ?? -1)
    .executeTakeFirstOrThrow();

const logger = createLogger('silent');

describe.each(dialects)('job queue on %s', (dialect) => {
  let t: TestDatabase;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
  });
  const worker = (handlers: Record<string, JobHandler>, extra = {}) =>
    createWorker({ db: t.db, dialect, logger, handlers, now, ...extra });
  const job = (id: number | null) => jobRow(t.db, id);

  it('runs a due job once with its payload and marks it done', async () => {
    const seen: unknown[] = [];
    const id = await enqueue(t.db, 'hello', { name: 'Amal' }, { runAt: clock });
    expect(await worker({ hello: async (p) => void seen.push(p) }).drain()).toBe(1);
    expect(seen).toEqual([{ name: 'Amal' }]);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await worker({ hello: async (p) => void seen.push(p) }).drain()).toBe(0);
  });

  it('exists only if the transaction that enqueued it commits', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueue(trx, 'never', {});
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.db.transaction().execute((trx) => enqueue(trx, 'kept', {}, { runAt: clock }));
    const names = (await t.db.selectFrom('jobs').select('name').execute()).map((j) => j.name);
    expect(names).toEqual(['kept']);
  });

  it('waits for run_at', async () => {
    await enqueue(t.db, 'later', {}, { runAt: clock + 60_000 });
    const ran: string[] = [];
    const w = worker({ later: async () => void ran.push('later') });
    expect(await w.drain()).toBe(0);
    clock += 60_000;
    expect(await w.drain()).toBe(1);
  });

  it('retries with backoff and keeps a job that never succeeds as dead', async () => {
    const id = await enqueue(t.db, 'flaky', {}, { runAt: clock, maxAttempts: 3 });
    const w = worker({
      flaky: async () => {
        throw new Error('gateway down');
      },
    });
    expect(await w.drain()).toBe(1);
    let row = await job(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Error: gateway down' });
    expect(Number(row.run_at)).toBeGreaterThan(clock);
    expect(await w.drain()).toBe(0); // not yet due
    for (let attempt = 2; attempt <= 3; attempt++) {
      clock = Number(row.run_at);
      expect(await w.drain()).toBe(1);
      row = await job(id);
    }
    expect(row).toMatchObject({ status: 'dead', attempts: 3 });
    clock += 10 * 3_600_000;
    expect(await w.drain()).toBe(0);
  });

  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(backoffMs(1, () => 0.5)).toBe(20_000);
    expect(backoffMs(3, () => 0.5)).toBe(80_000);
    expect(backoffMs(20, () => 0.5)).toBe(3_600_000);
    expect(backoffMs(1, () => 0)).toBe(16_000);
  });

  it('marks a job without a handler as failed instead of losing it', async () => {
    const id = await enqueue(t.db, 'unknown-job', {}, { runAt: clock, maxAttempts: 1 });
    await worker({}).drain();
    expect(await job(id)).toMatchObject({ status: 'dead', last_error: 'Error: No handler for job "unknown-job"' });
  });

  it('de-duplicates by unique key while a job is open', async () => {
    expect(await enqueue(t.db, 'recount', {}, { uniqueKey: 'recount:7', runAt: clock })).not.toBeNull();
    expect(await enqueue(t.db, 'recount', {}, { uniqueKey: 'recount:7', runAt: clock })).toBeNull();
    await worker({ recount: async () => {} }).drain();
    expect(await enqueue(t.db, 'recount', {}, { uniqueKey: 'recount:7', runAt: clock })).not.toBeNull();
  });

  it('takes back a job whose worker died', async () => {
    const id = await enqueue(t.db, 'slow', {}, { runAt: clock });
    await t.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker', locked_until: clock - 1, attempts: 1 })
      .where('id', '=', id ?? -1)
      .execute();
    expect(await worker({ slow: async () => {} }).drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('runs scheduled jobs again after their interval, one open occurrence at a time', async () => {
    let runs = 0;
    const w = worker({ tick: async () => void runs++ }, { schedules: [{ name: 'tick', everySeconds: 60 }] });
    expect(await w.drain()).toBe(1);
    expect(await w.drain()).toBe(0);
    clock += 60_000;
    expect(await w.drain()).toBe(1);
    expect(runs).toBe(2);
    const open = await t.db.selectFrom('jobs').select('id').where('status', '=', 'pending').execute();
    expect(open).toHaveLength(1);
  });

  it('never gives one job to two workers', async () => {
    for (let i = 0; i < 20; i++) await enqueue(t.db, 'count', { i }, { runAt: clock });
    const seen: number[] = [];
    const handler: JobHandler = async (p) => {
      seen.push(p.i);
      // Each job takes a little time, so the two workers' claims interleave (asserted on nothing).
      await new Promise((r) => setTimeout(r, 2));
    };
    const counts = await Promise.all([worker({ count: handler }).drain(), worker({ count: handler }).drain()]);
    expect(counts[0] + counts[1]).toBe(20);
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it('prunes old finished jobs and keeps dead ones', async () => {
    await enqueue(t.db, 'a', {}, { runAt: clock });
    await enqueue(t.db, 'b', {}, { runAt: clock, maxAttempts: 1 });
    await worker({
      a: async () => {},
      b: async () => {
        throw new Error('x');
      },
    }).drain();
    await pruneJobs(t.db, 7, clock + 8 * 86_400_000);
    expect((await t.db.selectFrom('jobs').select('name').execute()).map((j) => j.name)).toEqual(['b']);
  });
});

describe.each(dialects)('the app jobs on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  it('prune expired rate limits on their schedule and plan the next run', async () => {
    await t.db
      .insertInto('rate_limits')
      .values({ key: 'old', hits: 3, reset_at: Date.now() - 1000 })
      .execute();
    await t.db
      .insertInto('rate_limits')
      .values({ key: 'live', hits: 1, reset_at: Date.now() + 60_000 })
      .execute();
    const handlers = jobHandlers({
      mailer: { send: async () => {} },
      links: { origin: 'http://souq.test', secret: 'x'.repeat(32) },
    });
    const w = createWorker({ db: t.db, dialect, logger, handlers, schedules });
    expect(await w.drain()).toBe(schedules.length);
    expect((await t.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key)).toEqual(['live']);
    const next = await t.db.selectFrom('jobs').select(['name', 'run_at']).where('status', '=', 'pending').execute();
    expect(next.map((j) => j.name).sort()).toEqual(schedules.map((s) => s.name).sort());
    expect(Math.min(...next.map((j) => Number(j.run_at)))).toBeGreaterThan(Date.now() + 9 * 60_000);
  });
});

describe('npm run worker', () => {
  it('runs the scheduled jobs in its own process and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-worker-'));
    try {
      const child = spawn(process.execPath, ['server/worker.ts'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'test' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const deadline = Date.now() + 15_000;
      const done = () => {
        const db = new DatabaseSync(path.join(dataDir, 'souq.db'));
        try {
          return db.prepare("select count(*) as n from jobs where status = 'done'").get() as { n: number };
        } finally {
          db.close();
        }
      };
      while (!out.includes('job worker started') || done().n < schedules.length) {
        if (Date.now() > deadline) throw new Error(`worker did not run its jobs:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill('SIGTERM');
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).toBe(0);
      expect(out).toContain('job worker stopping');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(dialects)('mail through the queue on %s', (dialect) => {
  let t: TestDatabase;
  let mailDir: string;
  let smtp: { url: string; stop: () => Promise<void> };
  let clock = 1_900_000_000_000;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    mailDir = mkdtempSync(path.join(tmpdir(), 'souq-mail-jobs-'));
    // A real SMTP server that refuses the first two messages with a temporary failure.
    smtp = await startSmtpCapture(mailDir, { refuse: 2 });
  });
  afterAll(async () => {
    await smtp.stop();
    await t.drop();
    rmSync(mailDir, { recursive: true, force: true });
  });
  const mailer = () =>
    createMailer({ smtpUrl: smtp.url, mailFrom: 'Souq <no-reply@souq.test>', dataDir: mailDir }, logger);
  const worker = () =>
    createWorker({
      db: t.db,
      dialect,
      logger,
      handlers: jobHandlers({ mailer: mailer(), links: { origin: 'http://souq.test', secret: 'x'.repeat(32) } }),
      now: () => clock,
    });
  const job = (id: number | null) => jobRow(t.db, id);

  it('retries a refused mail with backoff until the SMTP server takes it', async () => {
    const message = verifyEmailMail(
      'en',
      'amal@example.ly',
      'Amal',
      'https://souq.example/account/email-verification?token=t1',
    );
    const id = await enqueueTyped(t.db, 'send-mail', mailJob('verify-email', message), { runAt: clock });
    const w = worker();
    expect(await w.drain()).toBe(1);
    let row = await job(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, max_attempts: 8 });
    expect(row.last_error).toMatch(/451/);
    expect(readMails(mailDir)).toEqual([]);
    clock = Number(row.run_at);
    expect(await w.drain()).toBe(1);
    row = await job(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    clock = Number(row.run_at);
    expect(await w.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    const mails = readMails(mailDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'amal@example.ly', subject: message.subject });
    expect(mails[0]?.links).toContain('https://souq.example/account/email-verification?token=t1');
  });

  it('marks a job whose payload fails its schema dead at once, with the reason', async () => {
    // Written around the registry (an older version, or by hand): `enqueue` would refuse it.
    const id = await enqueue(
      t.db,
      'send-mail',
      { kind: 'verify-email', message: { to: 'x@example.ly' } },
      { runAt: clock },
    );
    expect(await worker().drain()).toBe(1);
    const row = await job(id);
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toMatch(/^PermanentJobError: invalid payload for "send-mail"/);
    expect(row.last_error).toMatch(/subject/);
  });

  it('refuses a bad payload when it is enqueued', async () => {
    const bad = { kind: 'verify-email', message: { to: 'x@example.ly' } } as unknown as MailPayload;
    await expect(enqueueTyped(t.db, 'send-mail', bad)).rejects.toThrow(/subject/);
    await expect(enqueueTyped(t.db, 'recount-taxonomy', { taxonomyId: -1 })).rejects.toThrow();
  });
});
